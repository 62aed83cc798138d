"""Writes the register pages trigger (loads are the `load_registers` command's)."""

from __future__ import annotations

from registers.models import Citation, Register
from registers.verification import Verifier, effective_roots, summary, verify


def verify_register(register: Register) -> str:
    """Re-verify one register's citations against the configured sources (local git only) and
    store the verdicts; what was found, in a sentence."""
    checks = verify(Citation.objects.filter(row__register=register), verifier=Verifier(effective_roots()))
    counts = summary(checks)
    return f"Checked {len(checks)} citations: " + ", ".join(f"{n} {verdict}" for verdict, n in counts.most_common())
