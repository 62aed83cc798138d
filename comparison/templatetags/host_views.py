import json

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

register = template.Library()


#: Longest JSON value a page shows; the rest is counted (a script value of many blocks stays small).
MAX_JSON_SHOWN = 20_000


@register.filter
def pretty_json(value) -> str:
    """Indented JSON text, cut at MAX_JSON_SHOWN characters; the template escapes it like any other text."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    if len(text) <= MAX_JSON_SHOWN:
        return text
    return f"{text[:MAX_JSON_SHOWN]}\n… [{len(text) - MAX_JSON_SHOWN:,} more characters not shown]"


@register.filter
def make_list_words(value: str) -> list[str]:
    return value.split()


@register.filter
def chart_svg(found) -> str:
    """A chart's SVG: built by common.charts, which escapes every text it draws."""
    return mark_safe(found.svg)  # noqa: S308  (escaped where it is built)


@register.filter
def at(sequence, index: int):
    """`cells|at:2`: an item of a list by position (None past the end)."""
    try:
        return sequence[index]
    except (IndexError, TypeError, KeyError):
        return None


@register.filter
def get_item(mapping, key):
    """`counts|get_item:verdict`: a dict's value by a variable key."""
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.filter
def inline_code(value) -> str:
    """Text whose `backtick spans` become <code>: everything is escaped first, so only the
    <code> tags this adds are markup."""
    parts = str(value).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: keep the text as it is
        return escape(value)
    return mark_safe(  # noqa: S308  (every part escaped above)
        "".join(f"<code>{escape(part)}</code>" if index % 2 else escape(part) for index, part in enumerate(parts))
    )
