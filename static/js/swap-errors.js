// A form marked data-swap-errors shows the server's 400 and 413 answers in its target: they carry
// the message the user needs (htmx swaps only 2xx by default). A static file, not an hx-on
// attribute: the Content-Security-Policy allows no eval.
document.addEventListener("htmx:beforeSwap", (event) => {
  const source = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (source && source.closest("[data-swap-errors]") && [400, 413].includes(event.detail.xhr.status)) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
