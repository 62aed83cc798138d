"""The project's language, under every floor: the revisions, hosts, verdicts and labels both apps
speak (vocabulary), how a row's text links to its sources (linking), and what MCP is made of and
how a row meets it (anchors). Pure, no Django."""
