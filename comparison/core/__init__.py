"""The probe app's pure core: evidence and its checks, DPCTER failures, the envelope, reports and
their rows, charts, the playground, verdict pipelines. No module here imports Django, directly or
through another module (the import contract names this package, so a new module is covered
unlisted). The probe, host, lab and anchor packages beside it are pure as a whole too."""
