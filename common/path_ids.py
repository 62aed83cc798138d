"""Ids in URL paths that a database column can hold.

PostgreSQL's integer stops at 2**31 - 1 and refuses a bigger one with an error; SQLite does not.
A path id past it names nothing, so the resolver does not match it (a 404 on either database)."""

from __future__ import annotations

from django.http import Http404
from django.urls import register_converter

#: The largest primary key a database column holds (PostgreSQL's integer).
MAX_PK = 2**31 - 1


def is_object_id(number: int) -> bool:
    return 0 < number <= MAX_PK


class ObjectIdConverter:
    """`<pk:name>` in a page's URL, `{pk:name}` in an API path: 1 to 10 digits, no more than MAX_PK."""

    regex = "[0-9]{1,10}"

    def to_python(self, value: str) -> int:
        if not is_object_id(number := int(value)):
            raise ValueError(f"{value} is not an id")
        return number

    def to_url(self, value: int) -> str:
        return str(value)


# Registered here, where it is defined: the pages' URLs and the API's paths both name it.
register_converter(ObjectIdConverter, "pk")


def known_pk(pk: int) -> int:
    """The same bound for an id that comes in a request's body."""
    if not is_object_id(pk):
        raise Http404(f"No object #{pk}.")
    return pk


def known_text(value: str) -> str:
    """A path name PostgreSQL can compare: one with a NUL character names nothing (a 404)."""
    if "\x00" in value:
        raise Http404("No such name.")
    return value
