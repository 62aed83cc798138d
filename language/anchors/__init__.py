"""Spec anchors: what MCP is made of (read from the official schemas and spec pages, copied as
data), what a register row is about (read from its own text and citations), and how the two meet.
Pure, no Django. Checks declare anchors; rows get theirs at load; evidence meets them here."""
