"""The SQL of a move's hot path, written once per process instead of compiled per call.

Every move (``services.move_submit``, a bot's, a stand-in's) runs the same four statements: lock
the match row with its room, read the room's seats, insert the move's log row, update the match.
Through the ORM, building each statement's SQL cost more CPU than the database's whole answer (about
half of the server's CPU of a move's database work: docs/benchmarks.md, "What each server choice is
worth"). The SQL here is built from the models' own metadata (tables, columns, the backend's quoting
and row-lock clause) the first time a connection's vendor needs it, and the values read back go
through the same converters Django applies (``get_db_converters``), so the instances and rows are
the ones the ORM would give.

Nothing else writes through here: the two writes (``insert_move``, ``update_match``) are the
ORM's ``create`` and ``save(update_fields=...)`` without the compilation; neither model has
signal receivers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import orjson
from django.db import connections, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, JSONField, Model
from django.utils import timezone

from games.play.models import Match, MoveRecord, Room, Seat

Converter = Callable[[Any], Any]

_cache: dict[tuple[str, str], Any] = {}


def _columns(model: type[Model]) -> list[Field[Any, Any]]:
    return list(model._meta.concrete_fields)


def _column(model: type[Model], name: str) -> str:
    """The database column of ``model``'s field ``name`` (``"pk"``: its primary key)."""
    field = model._meta.pk if name == "pk" else model._meta.get_field(name)
    column = getattr(field, "column", None)
    if not isinstance(column, str):  # pragma: no cover - every field named here is concrete
        raise TypeError(f"{model.__name__}.{name} has no column")
    return column


def _converters(
    connection: BaseDatabaseWrapper, alias: str, fields: Sequence[Field[Any, Any]]
) -> list[Converter | None]:
    """Per column, what turns the driver's value into the model's (as the ORM's compiler does)."""
    result: list[Converter | None] = []
    for field in fields:
        column = field.get_col(alias)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if isinstance(field, JSONField) and field.decoder is None and found == [field.from_db_value]:
            # the same values, read by orjson (docs/benchmarks.md, "What each server choice is worth")
            result.append(_json_loads)
            continue
        if not found:
            result.append(None)
            continue

        def convert(value: Any, found: list[Any] = found, column: Any = column) -> Any:
            for converter in found:
                value = converter(value, column, connection)
            return value

        result.append(convert)
    return result


def _json_loads(value: Any) -> Any:
    """``JSONField.from_db_value`` for a column read whole (no decoder), by orjson."""
    return value if value is None or not isinstance(value, str | bytes) else orjson.loads(value)


def _json_dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _prep(field: Field[Any, Any], value: Any, connection: BaseDatabaseWrapper) -> Any:
    """``field.get_db_prep_save(value, connection)``; a JSON value for PostgreSQL (a ``jsonb``
    column, which keeps no formatting) written by orjson instead of ``json.dumps``."""
    if (
        value is not None
        and isinstance(field, JSONField)
        and field.encoder is None
        and connection.vendor == "postgresql"
    ):
        return _jsonb()(value, dumps=_json_dumps)
    return field.get_db_prep_save(value, connection)


@cache
def _jsonb() -> Any:
    from psycopg.types.json import Jsonb

    return Jsonb


def _convert(values: Sequence[Any], converters: Sequence[Converter | None]) -> list[Any]:
    return [
        value if convert is None else convert(value)
        for value, convert in zip(values, converters, strict=True)
    ]


def _lock_clause(connection: BaseDatabaseWrapper, table: str) -> str:
    """``select_for_update(no_key=True, of=("self",))`` for this backend ("" where rows are not locked)."""
    features = connection.features
    if not features.has_select_for_update:
        return ""
    clause = " FOR NO KEY UPDATE" if features.has_select_for_no_key_update else " FOR UPDATE"
    if features.has_select_for_update_of:
        clause += f" OF {table}"
    return clause


@cache
def _postgresql() -> tuple[Any, Any, Any, Any]:
    """What ``_cursor`` needs of Django's psycopg backend, imported where PostgreSQL is the
    database (SQLite needs no psycopg), once: an import statement in the function cost a few
    microseconds a statement."""
    # (django-stubs do not know the psycopg 3 names of Django's backend.)
    from django.db.backends.postgresql.base import (  # type: ignore[attr-defined]
        TIMESTAMPTZ_OID,
        ServerBindingCursor,
    )
    from django.db.backends.postgresql.psycopg_any import register_tzloader  # type: ignore[import-untyped]
    from psycopg.pq import Format

    return ServerBindingCursor, TIMESTAMPTZ_OID, Format.TEXT, register_tzloader


def _cursor(connection: BaseDatabaseWrapper) -> Any:
    """A cursor for these statements: on PostgreSQL, one that binds its parameters on the server.

    Django's psycopg cursor binds on the client (``server_side_binding`` off, its default): every
    value, the match's state JSON among them, is quoted and escaped into the SQL text in Python,
    about 40 µs of the update's CPU a move. Here the values travel apart from the SQL, which
    psycopg prepares after a few uses (docs/benchmarks.md, "What each server choice is worth"). The
    cursor is wrapped as Django wraps its own (``execute_wrappers``, the queries log), so nothing
    that watches the ORM's statements misses these.
    """
    if connection.vendor != "postgresql" or connection.settings_dict["OPTIONS"].get("server_side_binding"):
        return connection.cursor()
    server_binding_cursor, timestamptz_oid, text_format, register_tzloader = _postgresql()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = connection.connection
        cursor = server_binding_cursor(raw)
        # As Django's ``create_cursor``: the cursor's time zone, where the connection's differs.
        tzloader = raw.adapters.get_loader(timestamptz_oid, text_format)
        if connection.timezone != tzloader.timezone:
            register_tzloader(connection.timezone, cursor)
        connection.validate_thread_sharing()
        return (
            connection.make_debug_cursor(cursor)
            if connection.queries_logged
            else connection.make_cursor(cursor)
        )


def _prepared(connection: BaseDatabaseWrapper, name: str, build: Callable[[BaseDatabaseWrapper], Any]) -> Any:
    key = (connection.alias, name)
    prepared = _cache.get(key)
    if prepared is None:
        prepared = _cache[key] = build(connection)
    return prepared


# --- the match, locked, with its room -------------------------------------------------------------


def _build_locked_match(connection: BaseDatabaseWrapper) -> tuple[str, list[Any], list[Any], int]:
    quote = connection.ops.quote_name
    match_table, room_table = quote(Match._meta.db_table), quote(Room._meta.db_table)
    match_fields, room_fields = _columns(Match), _columns(Room)
    select = [f"{match_table}.{quote(field.column)}" for field in match_fields]
    select += [f"{room_table}.{quote(field.column)}" for field in room_fields]
    room_fk = quote(_column(Match, "room"))
    sql = (
        f"SELECT {', '.join(select)} FROM {match_table} "
        f"INNER JOIN {room_table} ON ({match_table}.{room_fk} = {room_table}.{quote(_column(Room, 'pk'))}) "
        f"WHERE {match_table}.{quote(_column(Match, 'pk'))} = %s"
        f"{_lock_clause(connection, match_table)}"
    )
    converters = _converters(connection, Match._meta.db_table, match_fields) + _converters(
        connection, Room._meta.db_table, room_fields
    )
    return sql, match_fields, converters, len(match_fields)


def locked_match(match_id: int) -> Match | None:
    """The match row locked for this transaction (``FOR NO KEY UPDATE OF`` the match only), with
    its room loaded, or None: ``Match.objects.select_for_update(no_key=True, of=("self",))
    .select_related("room").filter(pk=match_id).first()`` in one prepared statement."""
    using = router.db_for_write(Match)
    connection = connections[using]
    if not transaction.get_connection(using).in_atomic_block:
        raise transaction.TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    sql, match_fields, converters, split = _prepared(connection, "locked_match", _build_locked_match)
    with _cursor(connection) as cursor:
        cursor.execute(sql, [match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = _convert(row, converters)
    match = Match.from_db(using, [field.attname for field in match_fields], values[:split])
    room = Room.from_db(using, [field.attname for field in _columns(Room)], values[split:])
    Match._meta.get_field("room").set_cached_value(match, room)
    return match


# --- the room's seats, and whether a command id was applied ---------------------------------------

#: ``selectors.SeatRow``'s fields, in order.
SEAT_ROW_FIELDS = ("index", "is_bot", "state", "timeouts", "bot_level", "user", "id")


def _build_seat_rows(connection: BaseDatabaseWrapper) -> tuple[str, str, list[Any]]:
    quote = connection.ops.quote_name
    seat_table, move_table = quote(Seat._meta.db_table), quote(MoveRecord._meta.db_table)
    fields: list[Any] = [Seat._meta.get_field(name) for name in SEAT_ROW_FIELDS]
    select = ", ".join(f"{seat_table}.{quote(field.column)}" for field in fields)
    index = f"{seat_table}.{quote(_column(Seat, 'index'))}"
    where = f"WHERE {seat_table}.{quote(_column(Seat, 'room'))} = %s ORDER BY {index} ASC"

    def move_column(name: str) -> str:
        return f"U0.{quote(_column(MoveRecord, name))}"

    applied = (
        f"EXISTS(SELECT 1 FROM {move_table} U0 WHERE ({move_column('match')} = %s "
        f"AND {move_column('seat')} = {index} AND {move_column('command_id')} = %s))"
    )
    plain = f"SELECT {select} FROM {seat_table} {where}"
    with_applied = f"SELECT {select}, {applied} FROM {seat_table} {where}"
    converters = _converters(connection, Seat._meta.db_table, fields)
    return plain, with_applied, converters


def seat_rows(
    *, room_id: int, match_id: int | None = None, command_id: str | None = None
) -> list[tuple[Any, ...]]:
    """The room's seats in index order, as ``SeatRow`` values (index, is_bot, state, timeouts,
    bot_level, user_id, pk); with ``command_id``, each row ends with whether that seat has a
    move recorded with that command id in ``match_id``."""
    using = router.db_for_read(Seat)
    connection = connections[using]
    plain, with_applied, converters = _prepared(connection, "seat_rows", _build_seat_rows)
    with _cursor(connection) as cursor:
        if command_id is None:
            cursor.execute(plain, [room_id])
        else:
            cursor.execute(with_applied, [match_id, command_id, room_id])
        rows = cursor.fetchall()
    width = len(converters)
    return [(*_convert(row[:width], converters), *(bool(value) for value in row[width:])) for row in rows]


# --- the writes ----------------------------------------------------------------------------------


def _build_insert_move(connection: BaseDatabaseWrapper) -> tuple[str, list[Any]]:
    quote = connection.ops.quote_name
    fields = [field for field in _columns(MoveRecord) if not field.primary_key]
    columns = ", ".join(quote(field.column) for field in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(MoveRecord._meta.db_table)} ({columns}) VALUES ({placeholders})"
    return sql, fields


_MOVE_COLUMNS = frozenset(field.attname for field in _columns(MoveRecord) if not field.primary_key)


def insert_move(**values: Any) -> None:
    """``MoveRecord.objects.create(**values)``'s statement, without the model instance: ``values``
    by field name (``match`` as ``match_id``); ``created`` is now, as ``auto_now_add`` makes it,
    and every field left out takes its default. The primary key is not read back."""
    using = router.db_for_write(MoveRecord)
    connection = connections[using]
    sql, fields = _prepared(connection, "insert_move", _build_insert_move)
    if values.get("created") is None:
        values["created"] = timezone.now()
    if not values.keys() <= _MOVE_COLUMNS:
        raise TypeError(f"MoveRecord has no field {sorted(values.keys() - _MOVE_COLUMNS)}")
    given = [values[field.attname] if field.attname in values else field.get_default() for field in fields]
    row = [_prep(field, value, connection) for field, value in zip(fields, given, strict=True)]
    with _cursor(connection) as cursor:
        cursor.execute(sql, row)


def update_match(match: Match, field_names: Sequence[str]) -> None:
    """``match.save(update_fields=field_names)``'s statement."""
    using = router.db_for_write(Match)
    connection = connections[using]
    quote = connection.ops.quote_name
    key = f"update_match:{','.join(field_names)}"

    def build(connection: BaseDatabaseWrapper) -> tuple[str, list[Any]]:
        fields: list[Any] = [Match._meta.get_field(name) for name in field_names]
        assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
        sql = (
            f"UPDATE {quote(Match._meta.db_table)} SET {assignments} WHERE {quote(_column(Match, 'pk'))} = %s"
        )
        return sql, fields

    sql, fields = _prepared(connection, key, build)
    values = [_prep(field, getattr(match, field.attname), connection) for field in fields]
    with _cursor(connection) as cursor:
        cursor.execute(sql, [*values, match.pk])


__all__ = ["SEAT_ROW_FIELDS", "insert_move", "locked_match", "seat_rows", "update_match"]
