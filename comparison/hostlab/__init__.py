"""The host lab: real MCP hosts run headless against a fake model on 127.0.0.1, with what reached
the model and what the host told the upstream recorded. Pure as a whole: no Django here; the
dashboard stores and shows what this package observes.

One adapter per host (`adapters/`), one fake model that speaks every dialect the hosts use
(`dialects/`, `fake_model.py`), an egress trap that refuses and records any connection beyond
loopback (`egress_trap.py`), a stdio recorder between a host and its upstream (`recorder.py`),
and the readings of what was captured (`reached.py`, `told.py`, `features.py`).
"""
