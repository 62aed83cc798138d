"""The registers' pure core: reading and writing the register format, the vocabulary, citations,
lint, rendering, filtering and comparing rows. No module here imports Django, directly or through
another module (the import contract names this package, so a new module is covered unlisted)."""
