"""Project-level error pages (wired in comparison.urls)."""

from __future__ import annotations

from django.shortcuts import render


def not_found(request, exception=None):
    return render(request, "404.html", {"message": str(exception) if exception else ""}, status=404)
