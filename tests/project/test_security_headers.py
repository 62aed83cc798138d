"""What every page carries (issue 21, row 10): a Content-Security-Policy without inline script or
eval, the HTML export's own policy, and the settings a TLS-terminating reverse proxy needs."""

from __future__ import annotations

import re

import pytest

from tests.conftest import PROJECT


def test_behind_tls_the_settings_a_reverse_proxy_needs_are_on(tmp_path):
    """A newcomer following the README (the 'ready for a team' report)."""
    from tests.support.processes import manage

    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'tls.sqlite3'}",
        "MCP_COMPARE_BEHIND_TLS": "1",
        "MCP_COMPARE_HSTS_SECONDS": "31536000",
        "MCP_COMPARE_SECRET_KEY": "x" * 60,
        "MCP_COMPARE_ALLOWED_HOSTS": "compare.example.org",
    }
    script = (
        "from django.conf import settings as s; from django.test import Client;"
        "print(s.SECURE_PROXY_SSL_HEADER, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS);"
        "c = Client(HTTP_HOST='compare.example.org');"
        "print(c.get('/playground/').status_code, c.get('/playground/').get('Location'));"
        "r = c.get('/playground/', HTTP_X_FORWARDED_PROTO='https');"
        "print(r.status_code, r.get('Strict-Transport-Security'))"
    )
    lines = [line for line in manage("shell", "-c", script, env=env).splitlines() if line and "imported" not in line]
    assert lines[0] == "('HTTP_X_FORWARDED_PROTO', 'https') True True 31536000"
    assert lines[1] == "301 https://compare.example.org/playground/"
    assert lines[2] == "200 max-age=31536000"


PAGES = ["/", "/matrix/", "/registers/", "/disagreements/", "/playground/", "/probes/", "/accounts/login/"]


@pytest.mark.django_db
def test_every_page_carries_a_policy_without_inline_script_or_eval(loaded, client):
    """Issue 21, row 10."""
    for url in [*PAGES, "/no/such/page/"]:
        policy = client.get(url)["Content-Security-Policy"]
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
        assert directives["script-src"] == "'self'", url
        assert directives["style-src"] == "'self'", url
        assert directives["object-src"] == "'none'"
        assert directives["frame-ancestors"] == "'none'"
        assert "unsafe" not in policy, url


@pytest.mark.django_db
def test_the_html_export_is_served_with_its_own_policy(loaded, client):
    """Issue 21, row 10."""
    policy = client.get("/export.html")["Content-Security-Policy"]
    assert "style-src 'unsafe-inline'" in policy
    assert "default-src 'none'" in policy
    assert "script" not in policy, "no script may run in an export"


@pytest.mark.django_db
def test_no_template_needs_inline_script_inline_style_or_eval():
    """Issue 21, row 10: What the policy would block, caught before a browser sees it."""
    offences = []
    for template in (PROJECT / "templates").rglob("*.html"):
        if template.parts[-2] == "reports":  # exports: inline CSS by design, served with their own policy
            continue
        text = template.read_text()
        for pattern in (r"<script(?![^>]*\bsrc=)[^>]*>", r"\bhx-on", r"\son[a-z]+=", r'\sstyle="', r"<style"):
            offences += [f"{template.name}: {match}" for match in re.findall(pattern, text)]
    assert offences == []
