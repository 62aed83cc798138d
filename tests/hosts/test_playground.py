"""The playground page and the host views on row pages."""

from __future__ import annotations

import base64
import json

import pytest
from django.test import Client

from comparison.hosts.examples import COMPOSED

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def post(client, value, **extra):
    text = value if isinstance(value, str) else json.dumps(value)
    return client.post("/playground/", {"result": text, "provider": "openai-compatible"}, **extra)


def test_empty_page_and_examples(client):
    html = client.get("/playground/").content.decode()
    assert "Result JSON" in html
    assert 'href="?example=image_and_link"' in html
    picked = client.get("/playground/?example=resource_link").content.decode()
    assert "mcpx://artifacts/abc123" in picked
    assert picked.count("data-host-path=") == 7


def test_post_shows_every_host_path(client):
    html = post(client, COMPOSED["image_and_link"]).content.decode()
    assert html.count("data-host-path=") == 7
    assert "dropped</strong> content[1] (resource_link)" in html
    assert '<a href="/rows/CT-05/">CT-05</a>' in html


def test_htmx_post_returns_only_the_views(client):
    html = post(client, COMPOSED["image_and_link"], **HTMX).content.decode()
    assert "<html" not in html
    assert "<textarea" not in html
    assert 'data-host-path="cloudflare"' in html


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{oops", "Not valid JSON"),
        ("[1, 2]", "(input): expected a JSON object (a CallToolResult or GetPromptResult), got an array."),
        ('"text"', "(input): expected a JSON object (a CallToolResult or GetPromptResult), got a string."),
        ('{"content": null}', "content: expected an array of content blocks, got null."),
        ('{"content": 1}', "content: expected an array of content blocks, got a number."),
        ('{"content": [1]}', "content[0]: expected a content block object (with a type), got a number."),
        ('{"messages": {}}', "messages: expected an array of prompt messages, got an object."),
        ('{"messages": ["hi"]}', "messages[0]: expected a message object with role and content, got a string."),
        ("[" * 65 + "]" * 65, "nested deeper than 64 levels"),
        ("[" * 5000 + "]" * 5000, "nested deeper than 64 levels"),
        ('{"content": [], "x": NaN}', "NaN is not a JSON value"),
    ],
)
def test_bad_input_gets_a_400_naming_the_field(client, text, message):
    response = post(client, text)
    assert response.status_code == 400
    assert message in response.content.decode()
    fragment = post(client, text, **HTMX)
    assert fragment.status_code == 400
    assert "<html" not in fragment.content.decode()
    assert message in fragment.content.decode()


def test_wrong_types_inside_blocks_are_shown_as_the_hosts_see_them(client):
    response = post(client, {"content": [{"type": "text", "text": 5}], "structuredContent": None})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("data-host-path=") == 7


def test_anonymous_bodies_over_the_cap_get_413_unread(client, django_user_model):
    big = json.dumps({"content": [{"type": "text", "text": "x" * (3 * 1024 * 1024)}]})
    response = post(client, big, **HTMX)
    assert response.status_code == 413
    html = response.content.decode()
    assert "<html" not in html
    assert "the limit for visitors who are not logged in is 2.0\xa0MB" in html
    assert len(html) < 2000, "never echoes the input"
    django_user_model.objects.create_user("reader", password="pw-for-tests-only")
    client.login(username="reader", password="pw-for-tests-only")
    assert post(client, big, **HTMX).status_code == 200


def test_prompt_results_get_prompt_views(client):
    html = post(client, COMPOSED["prompt_few_shot"]).content.decode()
    assert "opencode v1 · slash command" in html
    assert "mcpx · prompts/get" in html
    assert html.count("data-host-path=") == 3


def test_large_image_shows_sizes_not_bytes(client, django_user_model):
    django_user_model.objects.create_user("reader", password="pw-for-tests-only")
    client.login(username="reader", password="pw-for-tests-only")
    data = base64.b64encode(b"\0" * (10 * 1024 * 1024)).decode()
    result = {"content": [{"type": "image", "data": data, "mimeType": "image/png"}]}
    response = post(client, result, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert len(html) < 100_000
    assert "10.0\xa0MB" in html
    page = post(client, result).content.decode()
    assert len(page) < 150_000, "a full page does not echo megabytes of input back"
    assert "is not shown back here" in page


def test_csrf_is_required():
    client = Client(enforce_csrf_checks=True)
    assert client.post("/playground/", {"result": "{}"}).status_code == 403


def test_row_page_shows_model_views_and_agreement(loaded, client):
    html = client.get("/registers/content-types/CT-05/").content.decode()
    assert "What each host makes of it" in html
    assert "?example=resource_link" in html
    assert 'class="agreement-agrees">agrees' in html
    assert "agreement-disagrees" not in html
    assert "checked against the real opencode 1.18.33 binary" in html
    assert "checked against the real @cloudflare/codemode 0.5.6 package" in html
    assert html.count("checked against hand-derived vectors only") >= 4  # v2 ×2, lootbox, mcpx
    ct14 = client.get("/registers/content-types/CT-14/").content.decode()
    assert "Measured against the real host" in ct14
    assert "bare zod issue list" in ct14
    assert "What each host makes of it" not in client.get("/registers/content-types/CT-06/").content.decode()


@pytest.mark.django_db
def test_the_playground_says_every_host_drops_an_errors_image(client):
    """A newcomer following the README (the 'ready for a team' report)."""
    image = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
    result = {"isError": True, "content": [{"type": "text", "text": "bad"}, image]}
    html = client.post("/playground/", {"result": json.dumps(result), "provider": "anthropic"}).content.decode()
    sections = html.split("data-host-path=")[1:]
    said = {section.split('"')[1]: "non-text blocks of the error" in section for section in sections}
    assert {path for path, says in said.items() if not says} <= {"lootbox", "mcpx"}, said
    assert said["opencode-v2"]
    assert said["cloudflare"]
    assert said["opencode-v1-codemode"]
    assert "image lost" in html
