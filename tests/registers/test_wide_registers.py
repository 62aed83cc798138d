"""Whatever loads on SQLite loads on PostgreSQL (issue 32, row 6): register text has no length
limits in the format, so none in the columns either. CI runs this file on both databases; on
PostgreSQL each of these used to stop with a raw DataError (value too long for varchar)."""

from __future__ import annotations

import pytest

from registers.loader import load_registers
from registers.models import Label, Register, Row
from tests.support.register_text import register_text

LONG_TITLE = "A register whose title runs on " + "and on " * 60
LONG_STATUS = "standard-but-with-a-status-word-that-is-much-longer-than-fifty-characters"
LONG_VALUE = "extraordinarily-valuable-beyond-any-fifty-character-column-width-here"
LONG_LABEL = "a-label-" + "x" * 260


def wide_register() -> str:
    text = register_text(3, prefix="WID", title=LONG_TITLE)
    text = text.replace("status:       standard", f"status:       {LONG_STATUS}")
    text = text.replace("| − moot |", f"| − {LONG_VALUE} |", 1)
    return text.replace("`2024-11-05 has` `opencode v1 has`", f"`2024-11-05 has` `opencode v1 has` `{LONG_LABEL}`", 1)


def many_prefixes() -> str:
    """One register whose rows use twelve ID prefixes (the register's prefix column lists them)."""
    text = register_text(12, prefix="PFA")
    for index in range(12):
        old, new = f"PFA-{index + 1:02d}", f"P{chr(65 + index)}X-{index + 1:02d}"
        text = text.replace(old, new)
    return text


@pytest.mark.django_db
def test_long_titles_statuses_values_and_labels_load(tmp_path):
    (tmp_path / "wide.md").write_text(wide_register(), encoding="utf-8")
    load_registers([tmp_path])
    register = Register.objects.get()
    assert register.title == LONG_TITLE.strip()
    assert register.status == LONG_STATUS
    assert Row.objects.filter(value_level=LONG_VALUE).exists()
    assert Label.objects.filter(text=LONG_LABEL).exists()


@pytest.mark.django_db
def test_a_register_of_many_id_prefixes_loads(tmp_path):
    (tmp_path / "prefixes.md").write_text(many_prefixes(), encoding="utf-8")
    load_registers([tmp_path])
    assert Row.objects.count() == 12
    assert len(Register.objects.get().prefix) > 50
