"""What both apps share on the Django side: HTTP helpers (the htmx partial, a page of a listing,
the export policy, a JSON answer), the API's shared shapes, streamed downloads, page-URL ids, the
models' choices built from the vocabulary, the log-in throttle, and the page cache. Nothing here
imports either app, but for the page cache's one row (its data version is a registers table)."""
