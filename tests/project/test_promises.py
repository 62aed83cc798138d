"""Promises a reviewer could break one at a time without any test failing (issue 22), each pinned
by what a user sees: the fail-closed policy on the audit page, a run's status on the API after
its last result, the lint's `removes` against a deprecated Where cell, every API endpoint refusing
every write method, and the order of verdicts a baseline gates on."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from comparison.hostlab.adapters import ADAPTERS
from comparison.models import ProbeRun, ProbeTarget
from comparison.services import lab as lab_services
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import execute_run_task, start_run
from registers.core import lint
from tests.registers.test_unseen_registers import with_row
from tests.support.processes import PROJECT, free_port, server

pytestmark = pytest.mark.django_db


def envelope_target(policy: str) -> ProbeTarget:
    command = [sys.executable, "-m", "tests.support.stubborn", "--stdio", "--envelope", policy]
    return ProbeTarget.objects.create(name=f"envelope {policy}", transport="stdio", command=command)


@pytest.mark.parametrize(("named", "shown"), [("reboot-the-moon", "escalate"), ("retry", "retry"), ("-", "escalate")])
def test_an_envelope_that_names_an_unknown_policy_is_read_as_escalate(client, named, shown):
    """The failure-gap article's fail-closed rule: a policy the product does not know escalates."""
    run = start_run(target=envelope_target(named), revisions=["2025-06-18"], scenarios=["auth-failure"])
    page = client.get(f"/probes/runs/{run.pk}/audit/", {"consumer": "proxy output", "coordinate": "P"})
    text = page.content.decode()
    assert f'<strong>{shown}</strong> <span class="muted">(from the envelope)</span>' in text, text[-3000:]


def test_the_api_says_done_once_the_run_ends_whatever_it_cached_after_the_last_result(client, monkeypatch):
    """A run's end changes the data version: a run cached as "running" after its last result must
    not outlive the run."""
    from comparison.services import probing

    target = probing.ensure_builtin_target()
    run = ProbeRun.objects.create(
        target=target, revisions=["2025-06-18"], scenarios=["text", "audio"], total=2, status=ProbeRun.QUEUED
    )
    url = f"/api/v1/runs/{run.pk}/"
    seen = []
    save = probing._save_result

    def save_then_look(run_, data):
        save(run_, data)
        seen.append(client.get(url).json()["status"])  # cached now, after this result

    monkeypatch.setattr(probing, "_save_result", save_then_look)
    execute_run_task.call(run.pk)  # as a worker runs it
    assert seen == ["running", "running"]
    answer = client.get(url)
    assert answer.json()["status"] == "done"
    assert answer.json()["done"] == 2


def test_removes_beside_a_deprecated_where_cell_is_a_contradiction():
    [finding] = lint.lint_text(with_row("`2025-06-18 removes` | `25-06 dep`"), "one.md")
    assert (finding.severity, finding.row, finding.code) == ("error", "TT-01", "contradiction")
    assert finding.message == (
        "label `2025-06-18 removes` contradicts the Where cell, which says 25-06 has it (deprecated)"
    )


#: A value for each path parameter the API's URL table uses; a new parameter fails the test below
#: until it has one, so a new endpoint cannot escape the write test.
SAMPLES = {"slug": "content-types", "row_id": "CT-01", "pk": None, "key": "codex", "feature": "image"}


def observation_pk() -> int:
    from comparison.hostlab import lab

    item = lab.not_measured(ADAPTERS["lootbox"], "text", "f", "not run here")
    return lab_services._save(item, "fixture")["id"]


def api_urls_to_try(client, run: ProbeRun) -> list[tuple[str, set[str]]]:
    """Every path of the generated OpenAPI document, filled with samples, and the methods it
    documents."""
    urls = []
    for path, operations in client.get("/api/v1/openapi.json").json()["paths"].items():
        names = re.findall(r"{(\w+)}", path)
        missing = [name for name in names if name not in SAMPLES]
        assert not missing, f"{path} takes {missing}: add a sample to SAMPLES"
        values = {name: SAMPLES[name] for name in names}
        if "pk" in values:
            known = {"targets": run.target_id, "runs": run.pk, "observations": observation_pk()}
            values["pk"] = next((pk for part, pk in known.items() if f"/{part}/" in path), run.results.first().pk)
        urls.append(
            (
                re.sub(r"{(\w+)}", lambda m, values=values: str(values[m.group(1)]), path),
                {m.upper() for m in operations},
            )
        )
    return urls


def test_every_api_endpoint_refuses_every_write_method_it_does_not_document(loaded, client, admin_client):
    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    urls = api_urls_to_try(client, run)
    assert len(urls) == 21, "18 reads, then targets/{pk}/ (PATCH), runs/{pk}/cancel/ and runs/upload/"
    for url, documented in urls:
        if "GET" in documented:
            assert client.get(url).status_code in (200, 300), url
        for who in (client, admin_client):
            for method in ("post", "put", "patch", "delete"):
                if method.upper() in documented:
                    continue
                response = getattr(who, method)(url)
                assert response.status_code == 405, (url, method, response.status_code)
                allowed = {method.strip() for method in response["Allow"].split(",")}
                assert allowed <= documented | {"HEAD", "OPTIONS"}, (url, response["Allow"])


def test_a_cell_that_moves_from_invalid_to_changed_is_a_baseline_regression(tmp_path):
    """Outside the peer lane: the order of verdicts the baseline gate reads (invalid for revision is
    better than changed by proxy)."""
    baseline = tmp_path / "proxy.baseline"
    baseline.write_text("unknown-type@2025-06-18: invalid for revision\n")
    port = free_port()
    with server([sys.executable, "-m", "tests.support.stubborn", "--port", str(port)], port):
        # The stubborn target answers "fine" where the fixture sends an unknown block type.
        probe = subprocess.run(
            [
                *(sys.executable, "manage.py", "probe", "--url", f"http://127.0.0.1:{port}/mcp", "--upstream-fixture"),
                *("--scenarios", "unknown-type", "--revisions", "2025-06-18", "--baseline", str(baseline)),
            ],
            cwd=PROJECT,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert probe.returncode == 1, probe.stdout + probe.stderr
    assert "regression: unknown-type@2025-06-18: invalid for revision → changed by proxy" in probe.stderr
    assert re.search(r"1 regression\(s\)", probe.stdout + probe.stderr)


def test_a_lint_warning_names_its_row_line_and_message():
    """Mutation survivors of the lint: which row a parser warning is about, and what an unknown
    label's finding says and where."""
    text = with_row("`2026-07-28 has` stray | `26-07 ✓`")
    [warning] = [f for f in lint.lint_text(text, "one.md") if f.code == "structure"]
    assert (warning.severity, warning.row) == ("warning", "TT-01")
    assert "text outside code spans in the Labels cell: 'stray'" in warning.message
    row_line = text.split("\n").index(next(line for line in text.split("\n") if line.startswith("| TT-01"))) + 1
    [unknown] = lint.lint_text(with_row("`2026-07-28 has` `some new label` | `26-07 ✓`"), "one.md")
    assert (unknown.line, unknown.message) == (row_line, "label `some new label` is of no known kind")
