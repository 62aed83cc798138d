// On a phone the filter panel starts closed unless a filter is set: the first rows then show on
// the first screen. A panel swapped in by htmx after a change keeps the server's `open`.
document.addEventListener("DOMContentLoaded", function () {
  if (!window.matchMedia("(max-width: 700px)").matches) return;
  document.querySelectorAll("details.filter-panel:not([data-active])").forEach(function (panel) {
    panel.open = false;
  });
});
