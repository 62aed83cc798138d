"""The evidence layer: what the probes and the host lab found, joined to the register rows through
their anchors. It is the one package that reads both apps' tables; the register pages, their API
twin, the exports and the commands read evidence here, and neither app imports the other's
selectors or views. No models of its own (an app only so that its command is found)."""
