"""Property tests: generated malformed answers through the wire client (HTTP and stdio), the runner,
host models, DPCTER scorer, storage, result pages and exports. Nothing raises; every answer ends
as a verdict. (tests/e2e/test_hostile.py holds the named shapes.)"""

from __future__ import annotations

import base64
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comparison.core import failures
from comparison.hosts import mcpx, prompt_views, tool_views
from comparison.hosts.present import PresentedView, present
from comparison.probes.assessment import revisions
from comparison.probes.assessment.diffing import diff
from comparison.probes.run.runner import VERDICTS, ProbeOutcome, TargetSpec, assess
from comparison.probes.run.scenarios import Scenario, suite
from comparison.probes.transport import jsonsafe
from comparison.probes.transport.exchange import Exchange, Limits
from comparison.probes.transport.http_transport import HttpTransport
from comparison.probes.transport.stdio_transport import StdioTransport
from language.tables import spreadsheet_safe
from tests.support.strategies import almost_json, examples, json_values, responses, results

SCENARIOS = list(suite("fixture"))
LIMITS = Limits(connect_timeout=1.0, total_timeout=2.0, max_bytes=1024 * 1024)
SPEC = TargetSpec("fuzz", "http", upstream="fixture")


def storable(value) -> None:
    """What PostgreSQL's jsonb and a UTF-8 page take: finite numbers, valid Unicode, no NUL."""
    json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8")  # raises on a lone surrogate
    pending = [value]
    while pending:  # no recursion: a stored answer may nest as deep as the wire allows, plus its wrapping
        item = pending.pop()
        if isinstance(item, str):
            assert "\x00" not in item, "a NUL character"
        elif isinstance(item, dict):
            pending += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            pending += item


def assessed(response, scenario: Scenario, revision: str) -> ProbeOutcome:
    value, repairs = jsonsafe.clean(response)
    exchange = Exchange(scenario.method, {"jsonrpc": "2.0", "id": 1})
    exchange.response, exchange.repairs = value, repairs.describe()
    outcome = assess(ProbeOutcome(scenario, revision, revision), exchange, SPEC)
    assert outcome.verdict in VERDICTS
    storable(outcome.as_dict())
    return outcome


@given(responses, st.sampled_from(SCENARIOS), st.sampled_from(revisions.REVISIONS))
@settings(max_examples=examples(600))
def test_any_response_is_assessed_into_a_verdict(response, scenario, revision):
    assessed(response, scenario, revision)


@given(results | json_values, st.sampled_from(revisions.REVISIONS), json_values)
@settings(max_examples=examples(400))
def test_host_models_scorer_and_diff_take_any_value(result, revision, other):
    # What reaches them has been through jsonsafe (the wire client and the playground both do it).
    (result, _), (other, _) = jsonsafe.clean(result), jsonsafe.clean(other)
    views = [present(view, limit=limit) for view in tool_views(result) for limit in (160, None)]
    views += [present(view) for view in prompt_views(result)]
    storable([view.to_json() for view in views])
    assert [PresentedView.from_json(view.to_json()) for view in views] == views, "stored views read back the same"
    for response in ({"jsonrpc": "2.0", "id": 1, "result": result}, {"jsonrpc": "2.0", "id": 1, "error": result}):
        profiles = failures.profiles(response, views, is_failure=True)
        storable([profile.as_dict() for profile in profiles])
    storable(diff(result, other))
    if isinstance(result, dict):
        storable(mcpx.downgrade(result, revision))
    for method in revisions.RESULT_SCHEMAS:
        storable([finding.as_dict() for finding in revisions.findings(result, method, revision)])


@given(st.text(max_size=200) | almost_json().map(lambda b: b.decode("utf-8", "replace")))
@settings(max_examples=examples(400))
def test_jsonsafe_either_keeps_a_value_or_says_why(text):
    try:
        value, _ = jsonsafe.loads(text)
    except ValueError:
        return
    storable(value)


@given(json_values)
def test_csv_cells_never_start_a_formula(value):
    cell = spreadsheet_safe(value)
    if isinstance(cell, str):
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))


class Canned(BaseHTTPRequestHandler):
    body = b""

    def log_message(self, *args) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = Canned.body
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def canned_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Canned)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/mcp"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture(scope="module")
def canned_transport(canned_url):
    transport = HttpTransport(canned_url, headers={"X-Api-Key": "fuzz-secret-value"}, limits=LIMITS)
    yield transport
    transport.close()


@given(body=almost_json(), scenario=st.sampled_from(SCENARIOS))
@settings(max_examples=examples(150))
def test_the_http_wire_client_turns_any_bytes_into_an_exchange(canned_transport, body, scenario):
    Canned.body = body
    exchange = canned_transport.exchange({"jsonrpc": "2.0", "id": 1, "method": scenario.method, "params": {}})
    storable(exchange.as_dict())
    assert "fuzz-secret-value" not in json.dumps(exchange.as_dict())
    if exchange.ok:
        assessed(exchange.response, scenario, "2025-06-18")


@pytest.fixture(scope="module")
def echo_transport():
    transport = StdioTransport([sys.executable, "-m", "tests.support.hostile", "--echo"], limits=LIMITS)
    yield transport
    transport.close()
    assert transport.process.poll() is not None


@given(body=almost_json(), scenario=st.sampled_from(SCENARIOS))
@settings(max_examples=examples(150))
def test_the_stdio_wire_client_turns_any_line_into_an_exchange(echo_transport, body, scenario):
    raw = base64.b64encode(body).decode()
    exchange = echo_transport.exchange(
        {"jsonrpc": "2.0", "id": 1, "method": scenario.method, "params": {"arguments": {"raw": raw}}}
    )
    storable(exchange.as_dict())
    if exchange.ok:
        assessed(exchange.response, scenario, "2025-11-25")


@pytest.mark.django_db
@given(response=responses, scenario=st.sampled_from(SCENARIOS))
@settings(max_examples=examples(25))
def test_stored_results_of_any_shape_render_on_pages_and_in_exports(client, response, scenario):
    from comparison.models import ProbeResult, ProbeRun, ProbeTarget
    from comparison.services.probing import _save_result

    target, _ = ProbeTarget.objects.get_or_create(name="fuzz", defaults={"transport": "http", "url": "http://x"})
    run = ProbeRun.objects.create(target=target, revisions=["2025-06-18"], scenarios=[], status=ProbeRun.DONE)
    _save_result(run, assessed(response, scenario, "2025-06-18").as_dict())
    result = ProbeResult.objects.filter(run=run).get()
    for url in (result.get_absolute_url(), run.get_absolute_url(), f"/probes/runs/{run.pk}/audit/"):
        assert client.get(url).status_code == 200, url
    for fmt in ("json", "csv"):
        response = client.get(f"/export.{fmt}")
        assert response.status_code == 200
        b"".join(response.streaming_content)
