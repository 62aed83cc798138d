"""The playground's cost is bounded whatever is pasted (issue 32, rows 4 and 5): a result of more
blocks than it takes is refused naming the field, and each host view shows a bounded number of
parts, files and changes, so the answer stays small however many blocks arrive. CPU per request
at the limits is measured in bench/bench_scale.py."""

from __future__ import annotations

import json

import pytest

from comparison.core.playground import MAX_BLOCKS, SHOWN_ITEMS
from comparison.templatetags.host_views import MAX_JSON_SHOWN, pretty_json

PIXEL = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
#: The largest answer any pasted result may get: the page and every host view at its cap.
MAX_ANSWER = 512 * 1024


def post(client, document: dict):
    return client.post("/playground/", {"result": json.dumps(document), "provider": "openai-compatible"})


@pytest.mark.django_db
def test_two_mebibytes_of_one_pixel_images_is_refused_naming_the_field(client):
    document = {"content": [PIXEL] * 30_000}
    assert len(json.dumps(document)) < 2 * 1024 * 1024, "within the anonymous body limit"
    response = post(client, document)
    assert response.status_code == 400
    assert f"content: 30,000 items; the playground takes up to {MAX_BLOCKS}" in response.content.decode()
    assert len(response.content) < 64 * 1024


@pytest.mark.django_db
@pytest.mark.parametrize("block", [PIXEL, {"type": "text", "text": "a line"}])
def test_the_answer_stays_bounded_at_the_block_limit(client, block):
    response = post(client, {"content": [block] * MAX_BLOCKS})
    assert response.status_code == 200
    page = response.content.decode()
    assert len(response.content) < MAX_ANSWER
    assert f"Not shown here: {MAX_BLOCKS - SHOWN_ITEMS:,} more parts" in page


@pytest.mark.django_db
def test_a_logged_in_user_near_32_mib_gets_an_answer_not_an_error(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("big", password="pw-big-1"))
    document = {"content": [{"type": "image", "data": "A" * (31 * 1024 * 1024), "mimeType": "image/png"}]}
    response = post(client, document)
    assert response.status_code == 200
    assert len(response.content) < MAX_ANSWER


def test_a_long_json_value_is_cut_saying_how_much_is_not_shown():
    text = pretty_json(["x" * 100] * 1000)
    assert len(text) < MAX_JSON_SHOWN + 100
    assert text.endswith("more characters not shown]")
    assert pretty_json({"a": 1}) == '{\n  "a": 1\n}'
