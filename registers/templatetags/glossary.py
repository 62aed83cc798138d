"""`{% term "dpcter" %}` or `{% term "citation" "no source" %}`: a word of the glossary linked to its
entry, with the entry's meaning as the link's title. Loaded for every template (settings builtins)."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from registers.core.glossary import BY_KEY

register = template.Library()


@register.simple_tag
def term(key: str, text: str = "") -> str:
    # An unknown key is a template's mistake: it fails the page's render, so a test sees it.
    entry = BY_KEY[key]
    return format_html(
        '<a class="term" href="{}#{}" title="{}">{}</a>', reverse("registers:glossary"), key, entry.meaning,
        text or entry.word,
    )  # fmt: skip
