"""What both apps share on the Django side and own no table of: HTTP helpers (the htmx partial, a
page of a listing, the export policy), streamed downloads, page-URL ids, the models' choices built
from the vocabulary, and the log-in throttle. Nothing here imports either app's Django side."""
