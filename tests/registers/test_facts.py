"""Row.facts, what the filters read, stays in step with each row's children on every write path."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from registers import facts
from registers.loader import load_registers
from registers.models import Label, Row
from tests.conftest import SHIPPED
from tests.support.register_text import register_text

pytestmark = pytest.mark.django_db


def expected(row: Row) -> dict:
    """The facts written out by hand from the children, without registers.core.rowfilter."""
    states = {"drifted": {"drifted", "file missing"}, "moved": {"moved"}}
    cite = {name for name, verdicts in states.items() if row.citations.filter(verdict__in=verdicts).exists()}
    if row.citations.filter(verdict__in=["", "no source"]).exclude(kind__in=["url", "wire"]).exists():
        cite.add("unverified")
    return {
        "support": {s.revision: s.state for s in row.support.order_by("revision")},
        "hosts": {n.host: n.state for n in row.host_notes.order_by("host")},
        "labels": sorted({label.text for label in row.labels.all()}),
        "cite": sorted(cite),
        "latest_version": max((v.increment for v in row.versions.all()), default=0),
    }


def test_a_load_writes_the_facts_of_every_row():
    load_registers([SHIPPED])
    rows = list(Row.objects.prefetch_related("support", "host_notes", "labels", "versions"))
    assert len(rows) == 111
    for row in rows:
        assert row.facts == expected(row), row.row_id
    assert any(row.facts["hosts"] for row in rows)
    assert any(row.facts["cite"] for row in rows)


def test_a_reload_updates_changed_rows_and_their_versions(tmp_path):
    path = tmp_path / "history.md"
    path.write_text(register_text(3), encoding="utf-8")
    load_registers([path])
    path.write_text(
        register_text(3, increment=4).replace("`2025-03-26 has` `opencode v2 has` `mcpx missing`", "`lootbox has`"),
        encoding="utf-8",
    )
    load_registers([path])
    changed = Row.objects.get(row_id="TT-02")
    assert changed.facts == expected(changed)
    assert changed.facts["latest_version"] == 1
    assert "lootbox has" in changed.facts["labels"]


def test_deleting_a_child_in_the_admin_refreshes_its_row(client):
    load_registers([SHIPPED])
    User.objects.create_superuser("root", "root@example.test", "pw-for-tests-only")
    client.login(username="root", password="pw-for-tests-only")
    label = Label.objects.filter(row__row_id="PRM-01", text="mcpx missing").get()
    response = client.post(f"/admin/registers/label/{label.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    row = Row.objects.get(row_id="PRM-01")
    assert "mcpx missing" not in row.facts["labels"]
    assert row.facts == expected(row)
    # Register content is read-only in the admin: the files are the source.
    assert client.get(f"/admin/registers/row/{row.pk}/change/").status_code == 200
    assert client.post(f"/admin/registers/row/{row.pk}/change/", {"title": "x"}).status_code == 403


def test_refresh_all_rebuilds_emptied_facts():
    load_registers([SHIPPED])
    Row.objects.update(facts={})
    assert facts.refresh_all() == 111
    row = Row.objects.get(row_id="CT-13")
    assert row.facts == expected(row)
