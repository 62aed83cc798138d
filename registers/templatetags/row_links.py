"""`{{ row.title_html|row_links:known_rows }}`: load-time HTML with links to rows nothing loaded
settled as text (language.linking); `known_rows` comes from the context processor."""

from django import template
from django.utils.safestring import mark_safe

from language.linking import settle_row_links

register = template.Library()


@register.filter
def row_links(html: str, known) -> str:
    if isinstance(known, str):  # rendered without the context processor: links as rendered
        return mark_safe(html or "")  # noqa: S308  (load-time renderer output, raw HTML escaped)
    return mark_safe(settle_row_links(html or "", known))  # noqa: S308  (load-time renderer output, raw HTML escaped)
