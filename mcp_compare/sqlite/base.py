"""Django's SQLite backend, with its JSON support found without a write lock.

Django asks whether SQLite supports JSON inside a transaction. With IMMEDIATE transactions (the
settings' choice, so a write never deadlocks on a read lock) that transaction waits for the
write lock, so a command started while a register load held it waited the busy timeout and then
failed 38 lines of system checks with a false "SQLite does not support JSONFields". The same
question asked outside a transaction needs no lock in WAL mode.
"""

from __future__ import annotations

from functools import cached_property

from django.db import OperationalError
from django.db.backends.sqlite3 import base, features


class DatabaseFeatures(features.DatabaseFeatures):
    @cached_property
    def supports_json_field(self) -> bool:
        with self.connection.cursor() as cursor:
            try:
                cursor.execute('SELECT JSON(\'{"a": "b"}\')')
            except OperationalError:
                return False
        return True


class DatabaseWrapper(base.DatabaseWrapper):
    features_class = DatabaseFeatures
