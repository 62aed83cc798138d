"""Static files and how pages go out: the favicon (before and after collectstatic) and compression."""

from __future__ import annotations

import re

import pytest


@pytest.mark.django_db
def test_a_favicon(client):
    """Issue 26, a first-time user's row 15."""
    found = client.get("/favicon.ico")
    assert found.status_code == 302
    # Hashed once `scripts/start.sh` has collected the static files (the manifest storage), plain before.
    assert re.search(r"/img/favicon(\.[0-9a-f]{12})?\.svg$", found["Location"]), found["Location"]
    assert 'rel="icon"' in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_favicon_holds_after_start_has_collected_the_static_files(client, settings, tmp_path):
    """Issue 26, row 15: Following the README (start, then test) switches the storage to hashed names; the favicon
    redirect then names the hashed file that collectstatic wrote."""
    from django.core.management import call_command

    settings.STATIC_ROOT = str(tmp_path)
    settings.STORAGES = dict(
        settings.STORAGES, staticfiles={"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}
    )
    call_command("collectstatic", "--noinput", verbosity=0)
    found = client.get("/favicon.ico")
    assert found.status_code == 302
    name = re.search(r"/img/(favicon\.[0-9a-f]{12}\.svg)$", found["Location"])
    assert name, found["Location"]
    assert (tmp_path / "img" / name.group(1)).is_file()


def test_pages_go_out_compressed_to_a_client_that_asks(client, loaded):
    """A newcomer following the README (the 'ready for a team' report)."""
    import gzip

    response = client.get("/matrix/", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    page = gzip.decompress(response.content).decode()
    assert "<h1>Matrix</h1>" in page
    assert len(response.content) * 4 < len(page.encode())
    assert "Content-Encoding" not in client.get("/matrix/")
