import json

from django import template

register = template.Library()


@register.filter
def pretty_json(value) -> str:
    """Indented JSON text; the template escapes it like any other text."""
    return json.dumps(value, indent=2, ensure_ascii=False)


@register.filter
def make_list_words(value: str) -> list[str]:
    return value.split()
