"""One verdict from the tries of a timing-sensitive cell. Pure, no Django.

A proxy that drops progress now and then was called "as expected" in one run and "lost" in the
next; played several times in one run, the tries say which it is. Tries that agree give their
verdict; tries that disagree, some as expected and some not, are "intermittent" with how often
each went wrong. A try that could not be made (the target failed it, or its prerequisite) is
named, never counted either way.
"""

from __future__ import annotations

from comparison.probes.families.base import Finding, worst
from language.vocabulary import ProbeVerdict as V

#: The tries of a timing-sensitive cell when nobody asks for another number. Measured: a proxy that
#: drops one call's notifications in two shows it in 1 of 2 tries half the time, and in 3 tries
#: with probability 7/8; a faithful relay costs nothing for them (a call's settle time ends once
#: all it expects arrived), a lossy one its settle time (0.2–0.3 s) per try.
DEFAULT_TRIES = 3
MAX_TRIES = 10
UNMADE = (V.FAILED, V.NOT_TESTABLE)
SHORT = {V.LOST: "lost", V.CHANGED: "changed", V.REFUSED: "refused", V.INVALID: "invalid"}


def combine(tried: list[list[Finding]]) -> tuple[str, list[Finding]]:
    """(verdict, findings) of a cell from each try's findings, in order."""
    verdicts = [worst(findings) for findings in tried]
    if len(set(verdicts)) <= 1:
        return (verdicts[0] if verdicts else V.AS_EXPECTED), (tried[0] if tried else [])
    made = [(verdict, findings) for verdict, findings in zip(verdicts, tried, strict=True) if verdict not in UNMADE]
    unmade = len(tried) - len(made)
    if not made:
        return worst([f for findings in tried for f in findings]), _distinct(tried)
    wrong = [(verdict, findings) for verdict, findings in made if verdict != V.AS_EXPECTED]
    note = f"; {unmade} of {len(tried)} tries could not be made" if unmade else ""
    if not wrong:
        return V.AS_EXPECTED, [Finding(V.AS_EXPECTED, "tries", f"as expected in every try that was made{note}")]
    if len(wrong) == len(made):
        findings = _distinct([findings for _, findings in wrong])
        if note:
            findings.append(Finding(V.AS_EXPECTED, "tries", note.lstrip("; ")))
        return worst(findings), findings
    counts: dict[str, int] = {}
    for verdict, _ in wrong:
        counts[verdict] = counts.get(verdict, 0) + 1
    how = ", ".join(f"{SHORT.get(verdict, verdict)} in {n} of {len(tried)}" for verdict, n in counts.items())
    first = wrong[0][1][0] if wrong[0][1] else Finding(V.CHANGED, "tries", "")
    summary = Finding(V.INTERMITTENT, first.message, f"intermittent: {how} tries{note} (first: {first.detail})")
    return V.INTERMITTENT, [summary, *_distinct([findings for _, findings in wrong])]


def _distinct(tried: list[list[Finding]]) -> list[Finding]:
    seen: dict[tuple[str, str, str], Finding] = {}
    for findings in tried:
        for finding in findings:
            seen.setdefault((finding.verdict, finding.message, finding.detail), finding)
    return list(seen.values())
