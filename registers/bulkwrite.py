"""Many rows of one table in one prepared statement (executemany): the ORM's bulk_create and
bulk_update build a model instance, or a CASE per field and row, for each one, which took most
of a register load and of a verification run. Values are prepared by the model's own fields
(JSON, dates), as the ORM would; table and column names come from the model, never from input.
"""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist
from django.db import connection
from django.db import models as django_models


def insert_many(model, rows: list[dict]) -> None:
    """INSERT `rows` (dicts of column name -> value, all with the same keys)."""
    if not rows:
        return
    names = list(rows[0])
    fields = [_field(model, name) for name in names]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"  # noqa: S608
    _execute_many(sql, fields, [[row[name] for name in names] for row in rows])


def update_many(model, objects: list, names: list[str]) -> None:
    """UPDATE the given fields of model instances, by primary key."""
    if not objects:
        return
    fields = [_field(model, name) for name in names]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    key = quote(model._meta.pk.column)
    sql = f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {key} = %s"  # noqa: S608
    values = [[getattr(obj, field.attname) for field in fields] + [obj.pk] for obj in objects]
    _execute_many(sql, [*fields, model._meta.pk], values)


def _execute_many(sql: str, fields: list, values: list[list]) -> None:
    prepared = [index for index, field in enumerate(fields) if _needs_preparing(field)]
    for line in values:
        for index in prepared:
            line[index] = fields[index].get_db_prep_save(line[index], connection)
    with connection.cursor() as cursor:
        cursor.executemany(sql, values)


def _field(model, name: str):
    """The model field behind a column name (`row_id` is Row's own ID, or a child's foreign key)."""
    try:
        return model._meta.get_field(name)
    except FieldDoesNotExist:
        return model._meta.get_field(name.removesuffix("_id"))


def _needs_preparing(field) -> bool:
    return isinstance(field, django_models.JSONField | django_models.DateTimeField)
