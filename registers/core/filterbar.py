"""The row list's filter bar: one select per facet, the common ones first, with the mode selects
of the revision and host facets. Pure, no Django."""

from __future__ import annotations

from dataclasses import dataclass, field

from registers.core.facetcounts import FacetOption
from registers.core.rowfilter import RowFilter

REV_MODE_TEXT = {
    "exists": "exists in",
    "introduced": "introduced in",
    "removed": "removed or deprecated in",
    "absent": "absent in",
    "unknown": "unknown in",
}
HOST_MODE_TEXT = {"mentioned": "mentioned", "has": "has it", "partial": "partial", "lacks": "lacks it"}


@dataclass
class FilterField:
    name: str
    label: str
    any_label: str
    options: list[FacetOption]
    mode_name: str = ""
    mode: str = ""
    modes: list[tuple[str, str]] = field(default_factory=list)
    #: Shown first; the others are folded under "More filters".
    common: bool = False
    #: The second side of a comparison (rows where this facet's value and that one differ).
    versus_name: str = ""
    versus: str = ""

    @property
    def active(self) -> bool:
        return any(option.selected for option in self.options)


def filter_fields(f: RowFilter, counts: dict[str, list[FacetOption]]) -> list[FilterField]:
    """The filter bar, in display order: one select per facet, with a mode select where it has one;
    the common ones first. A facet with nothing to offer (no reload has changed a row yet) is left
    out: a select whose one choice is "any" only takes room."""
    fields = [
        FilterField("register", "Register", "All registers", counts["register"], common=True),
        FilterField(
            "revision",
            "Revision",
            "Any revision",
            counts["revision"],
            "rev_mode",
            f.rev_mode,
            list(REV_MODE_TEXT.items()),
            common=True,
            versus_name="vs_revision",
            versus=f.vs_revision,
        ),
        FilterField(
            "host",
            "Host",
            "Any host",
            counts["host"],
            "host_mode",
            f.host_mode,
            list(HOST_MODE_TEXT.items()),
            common=True,
            versus_name="vs_host",
            versus=f.vs_host,
        ),
        FilterField("evidence", "Evidence", "Any evidence", counts["evidence"], common=True),
        FilterField("label", "Label", "Any label", counts["label"]),
        FilterField("status", "Status", "Any status", counts["status"]),
        FilterField("value", "Value", "Any value", counts["value"]),
        FilterField("effort", "Effort", "Any effort", counts["effort"]),
        FilterField("risk", "Risk", "Any risk", counts["risk"]),
        FilterField("cite", "Citations", "Any citations", counts["cite"]),
        FilterField("changed_since", "Changed", "Any time", counts["changed_since"]),
    ]
    return [one for one in fields if one.options or one.active]
