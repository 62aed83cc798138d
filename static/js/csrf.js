// htmx requests send Django's CSRF token from its cookie, so pages carry no per-visitor token and
// a visitor's page can be cached and shared.
document.addEventListener("htmx:configRequest", (event) => {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (match) {
    event.detail.headers["X-CSRFToken"] = decodeURIComponent(match[1]);
  }
});
