"""The citation grammar: every form the registers use."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from registers.core.citations import classify_path, expand_wire_ids, issue_refs, scan, wire_refs


def one(text: str):
    found = scan(text, field_name="sources")
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    ("path", "kind", "host"),
    [
        ("schema/2025-06-18/schema.ts", "spec-schema", None),
        ("schema/2026-07-28/examples/x.json", "spec-schema", None),
        ("2025-06-18/server/prompts.mdx", "spec-page", None),
        ("seps/1686-tasks.md", "spec-sep", None),
        ("docs/extensions/apps.mdx", "spec-extension", None),
        ("docs/docs/2025-06-18/guide.mdx", "spec-guide", None),
        ("docs/protocol.md", "subject-doc", "mcpx"),
        ("internal/cli/commands.go", "subject-source", "mcpx"),
        ("plugin/opencode/mcpx/daemon.ts", "subject-source", "mcpx"),
        ("ASSESSMENT.md", "subject-doc", "mcpx"),
        ("v1:packages/opencode/src/session/tools.ts", "host-source", "opencode-v1"),
        ("v1:patches/%2Fpkg@1.0.patch", "host-source", "opencode-v1"),
        ("v2:packages/core/src/tool/mcp.ts", "host-source", "opencode-v2"),
        (".lootbox/src/lib/rpc/execute_mcp.ts", "host-source", "lootbox"),
        ("nix:flake.nix", "repo-file", None),
        ("@modelcontextprotocol/sdk@1.22.0/dist/esm/types.js", "package-file", None),
    ],
)
def test_path_families(path, kind, host):
    assert classify_path(path) == (kind, host)


def test_file_with_escaped_quote():
    c = one('`schema/2024-11-05/schema.ts:846` "type: \\"text\\";"')
    assert (c.kind, c.path, c.line_start, c.line_end) == ("spec-schema", "schema/2024-11-05/schema.ts", 846, None)
    assert c.quote == 'type: "text";'
    assert c.quote_style == "double"


def test_range_and_code_quote():
    c = one("`internal/runner/runner.go:73-75` `candidates := x`")
    assert (c.line_start, c.line_end, c.quote, c.quote_style) == (73, 75, "candidates := x", "code")


def test_parenthetical_note():
    c = one("`nix:flake.nix:386-398` (pins the lootbox build)")
    assert c.note == "pins the lootbox build"
    assert c.kind == "repo-file"


def test_continuation_reuses_previous_path():
    found = scan("(`internal/mcpserver/revisions.go:146-156`, `:224-226`)", field_name="status")
    assert [(c.path, c.line_start, c.line_end, c.continuation) for c in found] == [
        ("internal/mcpserver/revisions.go", 146, 156, False),
        ("internal/mcpserver/revisions.go", 224, 226, True),
    ]


def test_continuation_without_a_path_is_ignored():
    assert scan("see `:12-14`") == []


def test_truncated_quote_with_lone_backtick_stops_at_next_citation():
    found = scan(
        '`internal/mcpserver/server.go:94` "Title       string      `; `internal/mcpserver/revisions.go:132-170`'
    )
    assert [c.locator for c in found] == ["internal/mcpserver/server.go:94", "internal/mcpserver/revisions.go:132-170"]
    assert found[0].quote == "Title       string      `"


def test_quote_containing_quotes_and_semicolon():
    found = scan('`internal/cli/serve.go:662-664` "fmt.Fprintf(&b, "; `internal/cli/serve.go:640-669`')
    assert found[0].quote == "fmt.Fprintf(&b, "
    assert found[1].locator == "internal/cli/serve.go:640-669"


def test_joined_lists_full_stop():
    found = scan('`a/b.go:1` "x".; `a/b.go:2` "y".')
    assert [(c.line_start, c.quote) for c in found] == [(1, "x"), (2, "y")]


def test_angle_url_with_quote():
    c = one(
        '<https://developers.cloudflare.com/agents/tools/codemode/api-reference/#mcpconnector> "MCP error results become thrown connector errors."'
    )
    assert c.kind == "url"
    assert c.host == "cloudflare"
    assert c.url.endswith("#mcpconnector")
    assert c.quote == "MCP error results become thrown connector errors."


def test_angle_url_with_line_numbers():
    c = one("<https://unpkg.com/@modelcontextprotocol/sdk@1.29.0/dist/esm/types.js> (L1131–L1137, L1296)")
    assert (c.line_start, c.line_end, c.host) == (1131, 1137, None)


def test_bare_url_with_heading_and_quote():
    c = one('https://developers.cloudflare.com/agents/how-it-works/#connectors ("Connectors": "Each connector wraps")')
    assert c.url == "https://developers.cloudflare.com/agents/how-it-works/#connectors"
    assert (c.note, c.quote) == ("Connectors", "Each connector wraps")


def test_bare_url_with_bare_lines_and_quote():
    c = one('https://unpkg.com/x@1.0.0/dist/types.js L649 "progressToken: messageId".')
    assert (c.line_start, c.line_end, c.quote) == (649, None, "progressToken: messageId")


def test_bare_url_with_line_range_and_full_stop():
    c = one("https://unpkg.com/x@1.0.0/dist/types.js L4–L12.")
    assert (c.url, c.line_start, c.line_end) == ("https://unpkg.com/x@1.0.0/dist/types.js", 4, 12)


def test_bare_url_alone():
    assert one("https://opencode.ai/docs/mcp-servers/.").url == "https://opencode.ai/docs/mcp-servers/"


def test_wire_groups():
    c = one("wire S5, W26")
    assert c.kind == "wire"
    assert c.wire_ids == ["S5", "W26"]
    assert expand_wire_ids("L1–L3, M2") == ["L1", "L2", "L3", "M2"]
    assert expand_wire_ids("W1–W999") == ["W1"]


def test_refs_in_status_cells():
    assert issue_refs("✗ — dropped (#212; `docs/protocol.md` §4.4) and #207") == [212, 207]
    assert issue_refs("see https://x.test/#anchor and a#1") == []
    assert wire_refs("✗ — missing (W22) (#209)") == ["W22"]
    assert wire_refs("the wire format (wire W5, W6, W18)") == ["W5", "W6", "W18"]
    assert wire_refs("see `(L1131–L1137)`") == []


def test_mixed_sources_field_in_order():
    text = (
        '`schema/2025-06-18/schema.ts:761` "type: \\"resource_link\\";"; `v1:packages/opencode/src/tool/code-mode.ts:104`; '
        'wire W21; <https://unpkg.com/p@1.0.0/a.js> (L1–L2); `2026-07-28/server/prompts.mdx:274` "#### Resource Links"'
    )
    found = scan(text)
    assert [c.kind for c in found] == ["spec-schema", "host-source", "wire", "url", "spec-page"]
    assert found[-1].quote == "#### Resource Links"


@pytest.mark.django_db
def test_no_source_citations_say_why_and_how_to_fetch_the_sources(loaded, capsys):
    """Issue 52, a newcomer's item 7."""
    from io import StringIO

    out = StringIO()
    call_command("verify_citations", stdout=out)
    last = out.getvalue().splitlines()[-1]
    no_source = int(out.getvalue().splitlines()[-2].rsplit(", ", 1)[1].split()[0])
    assert no_source > 0
    assert last.startswith(f"{no_source} no source: their repositories (")
    assert "`manage.py sync_sources` fetches them" in last
    page = Client().get("/registers/tools/").content.decode()
    assert 'id="no-source"' in page
    assert "<code>manage.py sync_sources</code> fetches them" in page
