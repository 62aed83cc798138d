"""Charts as inline SVG, drawn on the server: no chart library, nothing fetched, so a chart shows
the same in a page, an HTML export and a browser without JavaScript. Every chart is a titled set
of stacked horizontal bars and carries its table equivalent. Pure: every text is escaped here,
the markup returned is safe to embed as is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

LABEL_WIDTH = 230
BAR_WIDTH = 420
ROW_HEIGHT = 22
GAP = 6
#: Tones a segment may take; the stylesheet colours `.chart-<tone>`, the SVG carries a fallback fill.
TONES = {
    "good": "#2f855a",
    "warn": "#b7791f",
    "bad": "#c53030",
    "none": "#a0aec0",
    "ref": "#4a5568",
    "info": "#2b6cb0",
}


@dataclass(frozen=True)
class Segment:
    name: str
    value: float
    tone: str = "info"


@dataclass(frozen=True)
class Bar:
    label: str
    segments: tuple[Segment, ...]
    #: What a full-width bar stands for (a share's denominator); the sum of segments when 0.
    scale: float = 0.0
    note: str = ""  # shown after the bar, e.g. "18 of 21"


@dataclass
class Chart:
    title: str
    bars: list[Bar]
    columns: list[str] = field(default_factory=list)  # segment names, for the table

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-")[:60]

    @property
    def table(self) -> list[list[str]]:
        """Rows of the table equivalent: label, one cell per segment name, note."""
        rows = []
        for bar in self.bars:
            values = {segment.name: segment.value for segment in bar.segments}
            rows.append([bar.label, *(_number(values.get(name, 0)) for name in self.columns), bar.note])
        return rows

    @property
    def svg(self) -> str:
        return render_svg(self)


def chart(title: str, bars: list[Bar]) -> Chart:
    columns: list[str] = []
    for bar in bars:
        for segment in bar.segments:
            if segment.name not in columns:
                columns.append(segment.name)
    return Chart(title, bars, columns)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


#: The longest label drawn whole; a longer one ends in "…" (its table keeps it whole).
LABEL_CHARACTERS = 64
#: Pixels per character of a 12 px label, generous, so the label column fits the longest label.
CHARACTER_WIDTH = 6.8


def _label_width(found: Chart) -> int:
    longest = max((len(_clip(bar.label, LABEL_CHARACTERS)) for bar in found.bars), default=0)
    return max(LABEL_WIDTH, round(16 + CHARACTER_WIDTH * longest))


def render_svg(found: Chart) -> str:
    height = max(1, len(found.bars)) * (ROW_HEIGHT + GAP) + GAP + 24
    label_width = _label_width(found)
    width = label_width + BAR_WIDTH + 120
    slug = escape(found.slug)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" aria-labelledby="chart-{slug}-title">',
        f'<title id="chart-{slug}-title">{escape(found.title)}</title>',
    ]
    for index, bar in enumerate(found.bars):
        y = GAP + index * (ROW_HEIGHT + GAP)
        out.append(
            f'<text x="{label_width - 8}" y="{y + ROW_HEIGHT * 0.7:.1f}" text-anchor="end" '
            f'font-size="12">{escape(_clip(bar.label, LABEL_CHARACTERS))}</text>'
        )
        total = sum(max(0.0, s.value) for s in bar.segments)
        scale = bar.scale or total or 1.0
        x = float(label_width)
        out.append(
            f'<rect x="{label_width}" y="{y}" width="{BAR_WIDTH}" height="{ROW_HEIGHT}" '
            'class="chart-track" fill="#edf2f7"/>'
        )
        for segment in bar.segments:
            share = max(0.0, segment.value) / scale
            width_ = min(BAR_WIDTH, BAR_WIDTH * share)
            if width_ <= 0:
                continue
            tone = segment.tone if segment.tone in TONES else "info"
            out.append(
                f'<rect x="{x:.1f}" y="{y}" width="{width_:.1f}" height="{ROW_HEIGHT}" class="chart-{tone}" '
                f'fill="{TONES[tone]}"><title>{escape(bar.label)}: {escape(segment.name)} '
                f"{_number(segment.value)}</title></rect>"
            )
            x += width_
        if bar.note:
            out.append(
                f'<text x="{label_width + BAR_WIDTH + 6}" y="{y + ROW_HEIGHT * 0.7:.1f}" '
                f'font-size="12">{escape(_clip(bar.note, 20))}</text>'
            )
    legend_y = height - 8
    x = label_width
    for name, tone in _legend(found):
        out.append(f'<rect x="{x}" y="{legend_y - 10}" width="10" height="10" fill="{TONES[tone]}"/>')
        out.append(f'<text x="{x + 14}" y="{legend_y}" font-size="11">{escape(_clip(name, 24))}</text>')
        x += 24 + 7 * min(len(name), 24)
    out.append("</svg>")
    return "".join(out)


def _legend(found: Chart) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for bar in found.bars:
        for segment in bar.segments:
            seen.setdefault(segment.name, segment.tone if segment.tone in TONES else "info")
    return list(seen.items())


def _clip(text: str, limit: int = 34) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- the charts the pages draw -------------------------------------------------------------------


def share_bar(label: str, same: int, scored: int, *, name: str = "same as upstream") -> Bar:
    note = f"{100 * same / scored:.0f}% ({same}/{scored})" if scored else "not scored"
    return Bar(label, (Segment(name, same, "good"), Segment("other", scored - same, "bad")), float(scored), note)


def revision_timeline(title: str, per_revision: list[tuple[str, int, int, int]]) -> Chart:
    """(revision, introduced, deprecated, removed) per revision, oldest first. Every bar is drawn
    to one scale, the busiest revision's, so "+5" is five times as long as "+1"."""
    busiest = float(max((added + deprecated + gone for _, added, deprecated, gone in per_revision), default=0))
    bars = [
        Bar(
            revision,
            (
                Segment("introduced", added, "good"),
                Segment("deprecated", deprecated, "warn"),
                Segment("removed", gone, "bad"),
            ),
            scale=busiest,
            note=f"+{added} / ~{deprecated} / −{gone}",
        )
        for revision, added, deprecated, gone in per_revision
    ]
    return chart(title, bars)


SUPPORT_TONES = (("has", "good"), ("partial", "warn"), ("lacks", "bad"), ("n/a", "ref"), ("unknown", "none"))


def support_bars(title: str, per_host: list[tuple[str, dict[str, int]]]) -> Chart:
    """(host label, {state: rows}) per host: has / partial / lacks / n/a / unknown (named, no state)."""
    bars = [
        Bar(
            host,
            tuple(Segment(state, counts.get(state, 0), tone) for state, tone in SUPPORT_TONES),
            note=f"{sum(counts.get(state, 0) for state, _ in SUPPORT_TONES)} rows",
        )
        for host, counts in per_host
    ]
    return chart(title, bars)


def dpcter_bars(title: str, coordinates: list[tuple[str, tuple[int, int], list[tuple[str, int, int]]]]) -> Chart:
    """Per coordinate (name, (published typed, published total), [(consumer, typed, total)]): the
    published typed share first, then each consumer's share of its own failures."""
    bars = []
    for name, (typed, total), consumers in coordinates:
        bars.append(_typed_bar(f"{name}: published", typed, total, "ref"))
        bars += [_typed_bar(f"{name}: {consumer}", got, of, "info") for consumer, got, of in consumers]
    return chart(title, bars)


def _typed_bar(label: str, typed: int, total: int, tone: str) -> Bar:
    segments = (Segment("typed", typed, tone), Segment("not typed", max(0, total - typed), "none"))
    return Bar(label, segments, float(total), f"{typed} of {total}")


# --- a target's badge ------------------------------------------------------------------------------


#: A badge's value colours: darker than the charts' so its white 11 px text keeps 4.5:1 or more.
BADGE_TONES = {"good": "#276749", "warn": "#975a16", "bad": "#c53030", "none": "#4a5568"}


def badge_svg(label: str, value: str, tone: str, per_revision: list[tuple[str, str]]) -> str:
    """A flat badge (label | value) whose value part is cut into one hover zone per revision, each
    titled with that revision's figure. Every text escaped."""
    label_width = 8 + 7 * len(label)
    value_width = 10 + 7 * len(value)
    width = label_width + value_width
    fill = BADGE_TONES.get(tone, BADGE_TONES["none"])
    summary = "; ".join(f"{revision}: {text}" for revision, text in per_revision) or value
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
        f'aria-label="{escape(label)}: {escape(value)}">',
        f"<title>{escape(label)}: {escape(value)} ({escape(summary)})</title>",
        f'<rect width="{label_width}" height="20" fill="#555"/>',
        f'<rect x="{label_width}" width="{value_width}" height="20" fill="{fill}"/>',
        '<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">',
        f'<text x="6" y="14">{escape(label)}</text><text x="{label_width + 5}" y="14">{escape(value)}</text></g>',
    ]
    if per_revision:
        zone = value_width / len(per_revision)
        for index, (revision, text) in enumerate(per_revision):
            x = label_width + index * zone
            out.append(
                f'<rect class="revision" x="{x:.1f}" width="{zone:.1f}" height="20" fill-opacity="0">'
                f"<title>{escape(revision)}: {escape(text)}</title></rect>"
            )
    out.append("</svg>")
    return "".join(out)
