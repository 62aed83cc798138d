"""manage.py ensure_admin: make sure one superuser exists, so a new install can sign in."""

from __future__ import annotations

import os
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the superuser `admin` if no superuser exists (password from MCP_COMPARE_ADMIN_PASSWORD, or printed)."

    def handle(self, *args, **options):
        users = get_user_model()
        if users.objects.filter(is_superuser=True).exists():
            self.stdout.write("a superuser exists already")
            return
        password = os.environ.get("MCP_COMPARE_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
        users.objects.create_superuser("admin", "", password)
        shown = "(from MCP_COMPARE_ADMIN_PASSWORD)" if os.environ.get("MCP_COMPARE_ADMIN_PASSWORD") else password
        self.stdout.write(self.style.SUCCESS(f"created superuser admin, password {shown}"))
