"""Shareable playground links: the document travels compressed in the link, read back bounded."""

from __future__ import annotations

import base64
import json
import random
import zlib

import pytest

from comparison.core import share_links

DOCUMENT = {"content": [{"type": "text", "text": "shared <b>as is</b>"}, {"type": "image", "data": "iVBORw0KGgo=",
                                                                          "mimeType": "image/png"}]}  # fmt: skip


def test_a_document_round_trips_and_a_link_is_bounded():
    text = json.dumps(DOCUMENT)
    assert share_links.decode(share_links.encode(text), 10_000) == text
    noise = base64.b64encode(random.Random(1).randbytes(20_000)).decode()  # does not compress
    assert share_links.encode(noise) is None, "too long even compressed: no link rather than a broken one"


@pytest.mark.parametrize(
    ("token", "says"),
    [
        ("!!!not base64", "not base64url"),
        (base64.urlsafe_b64encode(b"plain bytes").decode(), "does not decompress"),
        (base64.urlsafe_b64encode(zlib.compress(b"x" * 5_000_000)).decode().rstrip("="), "over 100,000 bytes"),
        (base64.urlsafe_b64encode(zlib.compress(b'{"content": []}')[:-6]).decode(), "cut short"),
        ("A" * (share_links.MAX_TOKEN + 1), "at most"),
    ],
)
def test_a_bad_link_says_what_is_wrong_and_never_inflates_past_the_limit(token, says):
    with pytest.raises(share_links.ShareError, match=says):
        share_links.decode(token, 100_000)


@pytest.mark.django_db
def test_the_playground_offers_a_link_and_the_link_shows_the_same_views(client):
    posted = client.post("/playground/", {"result": json.dumps(DOCUMENT), "provider": "anthropic"})
    html = posted.content.decode()
    assert 'id="share"' in html
    link = html.split('id="share"><a href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert link.startswith("/playground/?provider=anthropic&d=")
    opened = client.get(link).content.decode()
    assert "shared &lt;b&gt;as is&lt;/b&gt;" in opened, "escaped, as pasted"
    assert "<b>as is</b>" not in opened
    assert "selected" in opened.split('value="anthropic"', 1)[1][:20]
    damaged = client.get("/playground/?d=!!!")
    assert damaged.status_code == 400
    assert "the shared link is damaged" in damaged.content.decode()
