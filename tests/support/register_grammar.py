"""Registers generated from the format's grammar, with every irregularity the format notes list
(`../shared/research/register-format.md` §7): escaped pipes, headings that differ from the table,
free-text Where cells, truncated quotes with a lone backtick, labels out of order and in
contradiction, status variants with wire and issue references, an extra "Also recorded" field,
`None.` efforts, the minus sign, joined source lists, wrapping inside quotes and code spans,
cross-register references and angle brackets in code spans.

Each generated register comes with what its Sources fields cite, so a test can check the parser's
citations against what was written rather than against itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hypothesis import strategies as st

SINGLE_SPACE = re.compile(r"(?<=\S) (?=\S)")
HEADER = "| ID | Difference | Labels | Where it exists | mcpx @ 05c78b2 | Value | Effort | Risk |"
DELIMITER = "| --- | --- | --- | --- | --- | --- | --- | --- |"
FRONT_MATTER = """```
created:      2026-09-30T08:00:00-05:00
last-updated: 2026-10-02T09:30:00+00:00
increment:    {increment}
status:       standard
tags:         area:generated, kind:test
description:  A register generated from the grammar, with a description long enough to wrap
              onto a second line.
```"""

DIFFERENCES = [
    ("`text` content block", None),
    ("pipe `a\\|b` in a code span", "pipe `a|b` in a code span"),  # §7.1: the heading has it unescaped
    ("`mcpx://<ns>/<uri>` templates", None),  # §7.15
    ("size ≥ 16 MiB → refused", None),
    ("audio blocks", "Audio content blocks, as hosts see them"),  # §7.2
]
REVISION_LABELS = [
    f"`{revision} {verb}`"
    for revision in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
    for verb in ("has", "removes", "deprecates")
]
OTHER_LABELS = [
    "`opencode v1 has`",
    "`opencode v2 has`",
    "`lootbox has`",
    "`mcpx missing`",
    "`mcpx has, others don't`",
    "`impl deferred`",
    "`specs conflict`",
]
WHERE_CELLS = [
    "`24-11 ✓ · 25-03 ✓ · 25-06 ✓ · 25-11 ✓ · 26-07 ✓`",
    "`25-03 ✓ · 25-06 — · 26-07 —`",
    "`26-07 only` · lootbox deno only · CF isolate",
    "`25-11 ✓ · 26-07 dep`",
    "`25-11 ✓ · 26-07 dep.`",
    "spec: none · opencode v2 16 MiB · mcpx 64 MiB",  # §7.3: free text
    "`24-11..25-11 ✓` · opencode v1 ✓",
    "`25-06 ✓(schema) · 25-11 ✓`",
    "`LOG-06` removable from 2027-07-28",
    "`a\\|b` · `25-11 client asks · 26-07 server decides`",
    "all five ✓",
]
STATUS_CELLS = [
    "✓ — works",
    "✗ — missing",
    "✗ broken — never applied (wire W5, W6) (#205)",
    "partial — dropped (#212; `docs/protocol.md` §4.4)",
    "n/a — not examined",
    "acc. — accepted beyond the revision",
    "✗ — not yet (W22) (#207)",
]
VALUES = ["+ low", "+ med", "+ high", "− moot", "− Workers-only", "− one-revision"]
EFFORTS = ["S", "M", "L", "XL"]
RISKS = ["low", "med", "high"]
REGISTER_NAMES = ["resources", "content types", "process model", "plugin apis"]

PATHS = [
    "internal/app/server.go",
    "2025-06-18/server/prompts.mdx",
    "2025-03-26/changelog.mdx",
    "schema/2025-06-18/schema.ts",
    "schema/2026-07-28/examples/Tool/example.json",
    "v2:packages/opencode/src/mcp/index.ts",
    "v1:patches/@ai-sdk%2Fmcp@1.0.0.patch",
    ".lootbox/src/worker.ts",
    "seps/1686-tasks.md",
    "docs/protocol.md",
    "ASSESSMENT.md",
    "docs/extensions/apps.mdx",
    "plugin/index.ts",
    "nix:flake.nix",
    "docs/docs/2025-06-18/learn.mdx",
    "@modelcontextprotocol/sdk@1.22.0/dist/esm/types.js",
]
QUOTES = [
    "Servers **MUST** reply",
    'type: \\"resource_link\\";',
    "Title       string      `",  # §7.4: cut inside a code span, a lone backtick
    "If `execution.taskSupport` is ",
    "return renderResult(res)",
    "clients as [Link Text](/specification/2025-06-18/server/tools#listing",
    "a quote long enough that a hard wrap at one hundred columns must split it somewhere in the middle",
]
CODE_QUOTES = ["`candidates := filter(all)`", "`if err != nil {`"]
WORDS = st.sampled_from(
    ["the", "proxy", "passes", "drops", "host", "lootbox", "Cloudflare", "opencode v1", "keeps", "it", "raw", "→"]
)
prose = st.lists(WORDS, min_size=3, max_size=14).map(" ".join)


@dataclass(frozen=True)
class Cited:
    """A file citation as written: what the parser must find in the Sources field."""

    path: str
    line_start: int
    line_end: int | None
    quote: str


@st.composite
def file_citation(draw) -> tuple[str, Cited]:
    path = draw(st.sampled_from(PATHS))
    first = draw(st.integers(1, 2000))
    last = draw(st.none() | st.integers(first + 1, first + 40))
    locator = f"`{path}:{first}" + (f"-{last}`" if last else "`")
    tail = draw(st.sampled_from(["none", "quote", "code", "note"]))
    quote = ""
    if tail == "quote":
        quote = draw(st.sampled_from(QUOTES))
        locator += f' "{quote}"'
        quote = quote.replace('\\"', '"')
    elif tail == "code":
        code = draw(st.sampled_from(CODE_QUOTES))
        locator += f" {code}"
        quote = code.strip("`")
    elif tail == "note":
        locator += " (pins the version)"
    return locator, Cited(path, first, last, quote)


OTHER_CITATIONS = [
    '<https://developers.cloudflare.com/agents/api-reference/codemode/#connectors> "MCP error results"',
    "<https://unpkg.com/@modelcontextprotocol/sdk@1.29.0/dist/esm/types.js> (L1131–L1137, L1296)",
    'https://developers.cloudflare.com/agents/tools/ ("Connectors": "errors become thrown")',
    "https://unpkg.com/@modelcontextprotocol/sdk@1.29.0/dist/esm/types.js L4–L12",
    "wire W21",
    "wire S5, W26",
    "wire M1, M2–M3",
]


@st.composite
def sources_field(draw) -> tuple[str, list[Cited]]:
    items: list[str] = []
    cited: list[Cited] = []
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            text, citation = draw(file_citation())
            items.append(text)
            cited.append(citation)
        else:
            items.append(draw(st.sampled_from(OTHER_CITATIONS)))
    joined = items[0]
    for item in items[1:]:
        # §7.11: two lists concatenated read `.; `; a list item may end with a stray full stop
        joined += draw(st.sampled_from(["; ", ".; "])) + item
    if draw(st.booleans()) and not joined.endswith('"'):
        joined += "."
    return joined, cited


def wrapped(label: str, text: str, width: int) -> list[str]:
    """A bullet field hard-wrapped at single spaces (inside quotes and code spans too, §7.12);
    continuation lines are indented by two spaces. Runs of spaces are never broken: joining
    the lines with one space gives the text back."""
    lines, current = [], f"- **{label}**"
    for word in SINGLE_SPACE.split(text):
        if len(current) + 1 + len(word) > width and current.strip() != f"- **{label}**":
            lines.append(current)
            current = "  " + word
        else:
            current += " " + word
    lines.append(current)
    return lines


@dataclass(frozen=True)
class GeneratedRow:
    row_id: str
    cells: tuple[str, ...]
    heading: str
    fields: tuple[tuple[str, str], ...]
    cited: tuple[Cited, ...]


@st.composite
def generated_row(draw, row_id: str) -> GeneratedRow:
    difference, heading = draw(st.sampled_from(DIFFERENCES))
    labels = draw(st.lists(st.sampled_from(REVISION_LABELS + OTHER_LABELS), min_size=1, max_size=4, unique=True))
    cells = (
        difference,
        " ".join(labels),  # §7.5: the drawn order, not a canonical one
        draw(st.sampled_from(WHERE_CELLS)),
        draw(st.sampled_from(STATUS_CELLS)),
        draw(st.sampled_from(VALUES)),
        draw(st.sampled_from(EFFORTS)),
        draw(st.sampled_from(RISKS)),
    )
    sources, cited = draw(sources_field())
    fields = [
        ("What.", draw(prose) + "."),
        ("Where.", draw(prose) + "."),
        ("mcpx @ 05c78b2.", f"Handled in `internal/app/server.go:{draw(st.integers(1, 900))}` and `:12-14`."),
        ("Value to mcpx.", draw(st.sampled_from([f"{cells[4]}: worth it.", "+ the broker is built on it."]))),
        ("Effort.", draw(st.sampled_from([f"{cells[5]} — small.", "None.", "Done."]))),
        ("Risk.", draw(st.sampled_from(["Low.", "None.", "n/a.", "A host may break."]))),
        ("Detail.", f"See CT-13 and the plugin-API register, PLG-39; {draw(prose)}."),
    ]
    for _ in range(draw(st.integers(0, 2))):
        name = draw(st.sampled_from(REGISTER_NAMES))
        fields.append((f"Also recorded from the {name} register.", f"The {name} register says {draw(prose)}."))
    fields.append(("Sources.", sources))
    return GeneratedRow(row_id, cells, heading or difference.replace("\\|", "|"), tuple(fields), tuple(cited))


@dataclass(frozen=True)
class GeneratedRegister:
    text: str
    rows: tuple[GeneratedRow, ...]


@st.composite
def generated_register(draw) -> GeneratedRegister:
    prefix = draw(st.sampled_from(["GEN", "ZZ", "MRTR"]))
    count = draw(st.integers(1, 6))
    rows = [draw(generated_row(f"{prefix}-{number:02d}")) for number in range(1, count + 1)]
    width = draw(st.sampled_from([100, 120, 10_000]))  # 10,000: Sources on one long line (§4.3)
    table = [HEADER, DELIMITER] + [f"| {row.row_id} | " + " | ".join(row.cells) + " |" for row in rows]
    sections = []
    for row in rows:
        section = [f"## {row.row_id} {row.heading}", ""]
        for label, text in row.fields:
            section += wrapped(label, text, width)
        sections.append("\n".join(section))
    text = "\n".join(
        [
            "# Generated register",
            "",
            FRONT_MATTER.format(increment=draw(st.integers(1, 40))),
            "",
            "An intro paragraph that mentions ERR-04 as part of the resources register, wrapped",
            "over two lines.",
            "",
            "Status column: **mcpx @ 05c78b2**. Legend and citation conventions: [../README.md](../README.md).",
            "",
            *table,
            "",
            "\n\n".join(sections),
        ]
    )
    return GeneratedRegister(text + "\n", tuple(rows))
