"""The words the dashboard uses that a newcomer cannot guess, each with what it means here. Pure
data: the glossary page lists them and `{% term %}` links a page's first use of one to its entry."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    key: str  # the entry's fragment on /glossary/
    word: str
    meaning: str
    #: Where the thing is seen or made, as a path of the dashboard ("" for none).
    where: str = ""


TERMS: tuple[Term, ...] = (
    Term(
        "register",
        "Register",
        "A Markdown document of protocol differences, one row each: which revisions have it, what each host does "
        "with it, and citations into the spec and the hosts' sources.",
        "/registers/",
    ),
    Term(
        "anchor",
        "Anchor",
        "A name for one piece of the protocol (a method, a type, a field, such as type:Tool or method:tools/list). "
        "A register row and a probe scenario that name the same anchor meet: the row gets that scenario's results "
        "as evidence.",
    ),
    Term(
        "evidence",
        "Evidence",
        "What backs a row besides its citations: probe results at the row's anchors, each revision's official "
        "schema, the host lab's measurements and, for failure-gap rows, the DPCTER audit.",
    ),
    Term(
        "citation",
        "Citation and \u201cno source\u201d",
        "A row's link to lines of the spec or of a host's source. The dashboard checks each against the source at "
        "the cited commit. \u201cNo source\u201d means the source is not on this machine: the check needs the "
        "cited repository, which `manage.py sync_sources` brings (it reaches GitHub), so offline it stays "
        "unchecked, never wrong.",
    ),
    Term(
        "probe",
        "Probe and target",
        "A probe sends real MCP traffic to a target (a proxy an admin configured) at each revision and records "
        "what came back. The built-in target is the fixture itself, with no proxy.",
        "/probes/",
    ),
    Term(
        "fixture",
        "Fixture",
        "The project's own upstream MCP server: it answers every scenario in a known way, so a difference "
        "through a proxy is the proxy's doing.",
    ),
    Term(
        "as-expected",
        "As expected",
        "The answer through the target is what the upstream sends, and valid for the revision.",
    ),
    Term(
        "changed",
        "Changed, lost, refused",
        "The proxy changed the answer (a difference from the upstream), dropped part of it (lost), or refused "
        "what the upstream would answer (refused).",
    ),
    Term(
        "not-compared",
        "Not compared",
        "Nothing to compare the answer with: the target has no upstream the probe can ask directly, or the same "
        "loss happens with no proxy in between. Never green, never a failure of the proxy.",
    ),
    Term(
        "not-testable",
        "Not testable",
        "The scenario cannot run at this revision: the revision has no such method or field.",
    ),
    Term(
        "interop",
        "Interop",
        "For each host: does it get through the proxy what it gets from the upstream directly? A run's interop "
        "score is the share of its cells where it does.",
    ),
    Term(
        "model",
        "Model (hand model)",
        "A host's behaviour written by hand from its source (which fields it reads, what it shows its model). "
        "A row of a run read through the \u201cmodel\u201d is this reading, not a measurement.",
        "/hosts/protocol/",
    ),
    Term(
        "lab",
        "Lab",
        "The host lab runs the real hosts (opencode, Codex CLI, Claude Code, Gemini CLI, Qwen Code, \u2026) against "
        "the fixture with a fake model on 127.0.0.1 and records what reached the model, as chips.",
        "/hosts/",
    ),
    Term(
        "captures",
        "Captures",
        "What a real host's model got when the host itself ran through the target and directly (\u201calso run "
        "the real hosts\u201d on a run): measured, where \u201clab\u201d is predicted from earlier measurements "
        "and \u201cmodel\u201d is read from the source.",
    ),
    Term(
        "chip",
        "Chip",
        "One measured state of a feature for a host: kept, changed, dropped, not supported, or not measured.",
    ),
    Term(
        "dpcter",
        "DPCTER",
        "The failure gap's six questions about a failure, asked of what reaches each consumer (the raw output, "
        "each host's model, a script): Detection (is it told apart from success?), Policy (can the next action "
        "be chosen from it?), Cause (argument, auth or missing resource?), Target (which parameter, tool or "
        "dependency?), Executable repair (can the corrected call be made without looking further?) and Replay "
        "constraints (when and how safely may it be tried again?). Each is decided from typed fields alone and "
        "from typed fields plus text; a run's audit page counts them (register FG-01 to FG-06).",
    ),
    Term(
        "cross-era",
        "Cross-era grid",
        "Every client revision against an upstream pinned to each revision, through the same proxy: whether a "
        "2026-07-28 host can reach a 2024-11-05 server through it, and back.",
    ),
    Term(
        "proposal",
        "Proposal",
        "An edit to a register that the evidence suggests (a revision cell the schema contradicts, a citation that "
        "moved), shown as a patch for the register's authors to review; never applied by itself.",
    ),
)

BY_KEY = {term.key: term for term in TERMS}
