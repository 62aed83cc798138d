"""What a register load did: counts, the registers it read, the files it skipped, the lint's
findings. Written by the load's writer, returned by the loader (its own module, so the two import
it in one direction)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class LoadReport:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    registers: list[str] = field(default_factory=list)
    skipped_files: list[str] = field(default_factory=list)
    unchanged_registers: list[str] = field(default_factory=list)
    #: {row ID: the slugs of the loaded registers that each have a row with it}, where more than one.
    shared_ids: dict[str, list[str]] = field(default_factory=dict)
    #: {source path: the register lint's findings (as dicts)} of every register in the load.
    findings: dict[str, list[dict]] = field(default_factory=dict)

    def lint_errors(self) -> list[str]:
        """Each lint error as `path:line: ROW message`."""
        return [
            f"{path}:{finding['line']}: {finding['row'] + ' ' if finding['row'] else ''}{finding['message']}"
            for path, found in self.findings.items()
            for finding in found
            if finding["severity"] == "error"
        ]

    def summary(self) -> str:
        return (
            f"{len(self.registers)} register(s): {self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged, {self.removed} removed"
        )
