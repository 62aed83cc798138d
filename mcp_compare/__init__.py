"""The project: settings (every per-machine value read in `env`), URLs, WSGI/ASGI, the middleware,
error pages, `/healthz`, the throttled log-in and the SQLite backend. The two apps beside it,
`registers` and `comparison`, hold what the dashboard does."""
