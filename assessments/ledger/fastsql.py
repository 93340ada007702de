"""Plain multi-row INSERT/UPDATE for the roll path (100k lines): executemany over tuples, no
model instances. Values must already be clean (the callers validate every row first)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection


def insert_rows(model, fields: Sequence[str], rows: Iterable[tuple]) -> None:
    opts = model._meta
    qn = connection.ops.quote_name
    columns = ", ".join(qn(opts.get_field(f).column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    rows = list(rows)
    if rows:
        with connection.cursor() as cursor:
            # Identifiers come from the model's meta, quoted; values are parameters.
            cursor.executemany(f"INSERT INTO {qn(opts.db_table)} ({columns}) VALUES ({marks})", rows)  # noqa: S608


def add_to_column(model, column_field: str, deltas: Iterable[tuple[object, int]]) -> None:
    """UPDATE t SET col = col + delta WHERE id = pk, for many (delta, pk) pairs."""
    opts = model._meta
    qn = connection.ops.quote_name
    col = qn(opts.get_field(column_field).column)
    deltas = list(deltas)
    if deltas:
        with connection.cursor() as cursor:
            sql = f"UPDATE {qn(opts.db_table)} SET {col} = {col} + %s WHERE {qn(opts.pk.column)} = %s"  # noqa: S608
            cursor.executemany(sql, deltas)


def when(value):
    """An aware datetime as the backend stores it."""
    return connection.ops.adapt_datetimefield_value(value)


def as_json(value):
    return connection.ops.adapt_json_value(value, None)
