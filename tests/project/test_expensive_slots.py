"""Issue 53, item 3: requests whose cost grows with the stored runs or rows hold one of a few slots
shared by the machine's server processes; when every slot is taken they answer 503 at once, with
Retry-After, and every other page answers as usual."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.test import Client

from common.slots import slot

pytestmark = pytest.mark.django_db

EXPENSIVE_URLS = (
    "/export.csv",
    "/disagreements/?format=csv",
    "/probes/compare/?run={a}&run={b}",
    "/probes/compare/?a={a}&b={b}",
    "/probes/runs/{a}/audit/",
    "/api/v1/compare/?run={a}&run={b}",
)


def two_runs():
    from comparison.services.probing import ensure_builtin_target
    from comparison.tasks import start_run

    target = ensure_builtin_target()
    return [start_run(target=target, revisions=["2025-06-18"], scenarios=["text"]) for _ in range(2)]


def test_a_slot_is_taken_once_and_freed_when_its_holder_ends(tmp_path):
    with slot(tmp_path, 2, "x") as first, slot(tmp_path, 2, "x") as second, slot(tmp_path, 2, "x") as third:
        assert (first, second, third) == (0, 1, None)
        with slot(tmp_path, 2, "other") as other:
            assert other == 0, "each kind has its own slots"
    with slot(tmp_path, 2, "x") as again:
        assert again == 0


def test_a_slot_held_by_another_process_counts_and_its_death_frees_it(tmp_path):
    holder = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        from pathlib import Path
        from common.slots import slot
        with slot(Path({str(tmp_path)!r}), 1, "x") as number:
            print(number, flush=True)
            time.sleep(60)
    """)
    process = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "0"
        with slot(tmp_path, 1, "x") as number:
            assert number is None, "another process holds the only slot"
    finally:
        process.kill()
        process.wait(timeout=10)
    with slot(tmp_path, 1, "x") as number:
        assert number == 0, "a process that died freed its slot"


def test_every_expensive_request_answers_busy_when_the_slots_are_taken_and_cheap_pages_do_not(settings, loaded):
    a, b = (run.pk for run in two_runs())
    client = Client()
    urls = [url.format(a=a, b=b) for url in EXPENSIVE_URLS]
    for url in urls:
        assert client.get(url).status_code == 200, url
    settings.EXPENSIVE_SLOTS = 2
    settings.EXPENSIVE_RETRY_SECONDS = 7
    directory = Path(settings.EXPENSIVE_SLOTS_DIR)
    with slot(directory, 2, "expensive") as first, slot(directory, 2, "expensive") as second:
        assert (first, second) == (0, 1)
        for url in urls:
            busy = client.get(url + "&fresh=1" if "?" in url else url + "?fresh=1")
            assert busy.status_code == 503, url
            assert busy["Retry-After"] == "7"
            assert "Retry in 7 s" in busy.content.decode(), url
        assert client.get(f"/api/v1/compare/?run={a}&run={b}&fresh=2").json()["retry_after"] == 7
        for cheap in ("/", "/matrix/", "/registers/", "/rows/CT-05/", f"/probes/runs/{a}/", "/hosts/"):
            assert client.get(cheap, follow=True).status_code == 200, cheap
    for url in urls:
        assert client.get(url + "&again=1" if "?" in url else url + "?again=1").status_code == 200, url


def test_a_failing_expensive_view_frees_its_slot(settings):
    settings.EXPENSIVE_SLOTS = 1
    client = Client()
    for _ in range(3):
        assert client.get("/probes/runs/999999/audit/").status_code == 404
    with slot(Path(settings.EXPENSIVE_SLOTS_DIR), 1, "expensive") as number:
        assert number == 0, "the 404s left the slot free"
