"""The icon every page links to, at the path tools ask for without reading a page."""

from django.shortcuts import redirect
from django.templatetags.static import static


def favicon(request):
    """`/favicon.ico`, which tools ask for without reading the page: the icon the pages link to.
    Resolved per request, so the static manifest (hashed names) is read only once it exists."""
    response = redirect(static("img/favicon.svg"))
    response["Cache-Control"] = "public, max-age=86400"
    return response
