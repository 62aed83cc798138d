"""Builds register Markdown for tests and benchmarks: a small valid register in the real format,
with N rows, and helpers that break it one way at a time."""

from __future__ import annotations

HEADER = "| ID | Difference | Labels | Where it exists | mcpx @ 05c78b2 | Value | Effort | Risk |"
DELIMITER = "| --- | --- | --- | --- | --- | --- | --- | --- |"

FRONT_MATTER = """```
created:      2026-09-30T08:00:00-05:00
last-updated: 2026-09-30T08:00:00-05:00
increment:    {increment}
status:       standard
tags:         area:compare
description:  A register made for tests, with a description long enough to wrap onto
              a second line like the README's does.
```"""

ROW_VARIANTS = [
    (
        "`{rid}` a `text` thing",
        "`2024-11-05 has` `opencode v1 has`",
        "`24-11 ✓ · 25-03 ✓ · 25-06 ✓ · 25-11 ✓ · 26-07 ✓`",
        "✓ — works",
        "+ high",
        "S",
        "low",
    ),
    (
        "audio for {rid}",
        "`2025-03-26 has` `opencode v2 has` `mcpx missing`",
        "`24-11 — · 25-03 ✓ · 25-06 ✓ · 25-11 ✓ · 26-07 ✓ · opencode v1 dropped · v2 media`",
        "partial — dropped (#206)",
        "+ med",
        "M",
        "med",
    ),
    (
        "batches in {rid}",
        "`2025-03-26 has` `2025-06-18 removes`",
        "`25-03 ✓ · 25-06 — · 26-07 —`",
        "n/a — not examined",
        "− moot",
        "S",
        "low",
    ),
    (
        "pipe `a\\|b` in {rid}",
        "`2026-07-28 has` `lootbox has`",
        "`26-07 only` · lootbox deno only · CF isolate",
        "✗ broken — never applied (wire W5, W6) (#205)",
        "+ low",
        "L",
        "high",
    ),
    (
        "deprecated {rid}",
        "`2025-11-25 has` `2026-07-28 deprecates` `specs conflict`",
        "`25-11 ✓ · 26-07 dep`",
        "acc. — accepted beyond",
        "+ med",
        "XL",
        "med",
    ),
]


def row_section(rid: str, variant: int) -> str:
    title = ROW_VARIANTS[variant][0].format(rid=rid).replace("\\|", "|")
    return f"""## {rid} {title}

- **What.** The thing {rid} describes; opencode v1 passes it on, and lootbox keeps it raw.
- **Where.** All five revisions. Cloudflare unwraps it.
- **mcpx @ 05c78b2.** Handled in `internal/cli/commands.go:385-415` and again at `:414`.
- **Value to mcpx.** + med: worth it.
- **Effort.** S — small.
- **Risk.** Low.
- **Detail.** See CT-13 and the [mrtr.md](mrtr.md) register; raw <b>html</b> is text.
- **Sources.** `schema/2025-06-18/schema.ts:761` "type: \\"resource_link\\";"; `v1:packages/opencode/src/session/tools.ts:430`; <https://developers.cloudflare.com/agents/tools/codemode/api-reference/#mcpconnector> "MCP error results
  become thrown connector errors."; wire W21
"""


def register_text(
    rows: int = 5,
    *,
    prefix: str = "TT",
    title: str = "Test register",
    increment: int = 1,
    titles: dict[str, str] | None = None,
) -> str:
    ids = [f"{prefix}-{n:03d}" if rows > 99 else f"{prefix}-{n:02d}" for n in range(1, rows + 1)]
    table = [HEADER, DELIMITER]
    for index, rid in enumerate(ids):
        difference, labels, where, status, value, effort, risk = ROW_VARIANTS[index % len(ROW_VARIANTS)]
        difference = (titles or {}).get(rid, difference.format(rid=rid))
        table.append(f"| {rid} | {difference} | {labels} | {where} | {status} | {value} | {effort} | {risk} |")
    sections = [row_section(rid, index % len(ROW_VARIANTS)) for index, rid in enumerate(ids)]
    return (
        "\n".join(
            [
                f"# {title}",
                "",
                FRONT_MATTER.format(increment=increment),
                "",
                "An intro paragraph that points at [prompts.md](prompts.md) and mentions CT-05 in passing,",
                "wrapped over two lines.",
                "",
                "Status column: **mcpx @ 05c78b2**. Legend and citation conventions: [../README.md](../README.md).",
                "",
                *table,
                "",
                "\n".join(sections).rstrip("\n"),
            ]
        )
        + "\n"
    )


def comparable(doc):
    """What a parse says about a register, in a form two parses can be compared by."""
    return {
        "title": doc.title,
        "front": doc.front_matter,
        "subject": (doc.subject, doc.subject_commit),
        "rows": [
            (
                r.row_id,
                r.title,
                r.difference,
                r.labels_cell,
                r.where_cell,
                r.status_cell,
                r.value_cell,
                r.effort_cell,
                r.risk_cell,
                [(f.key, f.name, f.text) for f in r.fields],
                [(lb.text, lb.kind) for lb in r.labels],
                [(s.revision, s.state, s.source, s.note) for s in r.support],
                (r.introduced_in, r.deprecated_in, r.removed_in),
                [(n.host, n.state, n.state_source) for n in r.host_notes],
                r.citations,
                r.issue_refs,
                r.wire_refs,
            )
            for r in doc.rows
        ],
    }
