"""`verbale verify --read-models`: the stored read models compared with a fold of the record.

The read models are folded from the events, but they are plain tables: whoever can write to the
database can change a winner or a score there, and the match list, the scores and the standings
then say something the record does not. `compare` folds the log again, from its first event, into
fresh tables (a temporary SQLite file) with the very code a rebuild uses (`catch_up`, fold.py,
fold_tarocchi.py: no second implementation), up to the position the stored tables are tracked at,
and compares every folded table with the stored one row by row, by primary key: a row the fold
has and the tables lack (`missing`), a row the tables hold and the fold does not (`extra`), and
each column that differs (`differs`, with the folded and the stored value).

The stored tables and their position are read in one snapshot (PostgreSQL: a REPEATABLE READ
transaction; SQLite: one read transaction), so a projection running meanwhile cannot make a
difference appear. Lag is not tampering: the events stored after the tracked position are counted
(`behind`), and a position past the log's end (`ahead`: events the tables were folded from are no
longer in the log) is a difference of `rm_tracking`'s position, with the log's last event as
the value the record gives. Tables of another layout, or none, are `built` False:
nothing to compare (`verbale project` builds them).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, Table, inspect, select

from projections.read_models import schema_tarocchi
from projections.read_models.engine import read_model_engine
from projections.read_models.project import BATCH, Each, catch_up
from projections.read_models.schema import (
    NOT_FOLDED,
    SCHEMA_VERSION,
    Base,
    Tracked,
    ensure_schema,
    stored_version,
)
from projections.store.app import MatchStore

MISSING, EXTRA, DIFFERS = "missing", "extra", "differs"
_OWNERS = ("stream", "tournament")
"""The key columns that name the match or tournament a row belongs to."""
assert schema_tarocchi.TarocchiTorneo.__tablename__ in Base.metadata.tables


def folded_tables() -> list[Table]:
    """Every table of the layout that is a fold of the log (schema.py's and the Tarocchi ones),
    by name."""
    return [table for name, table in sorted(Base.metadata.tables.items())
            if name not in NOT_FOLDED]


@dataclass(frozen=True, slots=True)
class Difference:
    """One row or one column of a stored table that is not what the fold gives.

    `key` the row's primary key, column by column; `kind` MISSING (the fold has the row, the
    table not), EXTRA (the table has a row the fold does not) or DIFFERS (`column`, with the
    value `expected` from the fold and the value `stored`)."""

    table: str
    key: tuple[tuple[str, Any], ...]
    kind: str
    column: str | None = None
    expected: Any = None
    stored: Any = None

    @property
    def stream(self) -> str | None:
        """The match or tournament the row belongs to (None: a player's row, a count)."""
        return next((str(value) for name, value in self.key if name in _OWNERS), None)

    @property
    def where(self) -> str:
        """The row's key as text: `stream=3f1c…, number=2`."""
        return ", ".join(f"{name}={value}" for name, value in self.key)


@dataclass(frozen=True, slots=True)
class Comparison:
    """The stored read models against a fold of the log up to their position.

    `built` False: no tables of this layout (nothing was compared). `position` the notification
    the tables are tracked at (None: none folded), `head` the log's last one, `rows` the stored
    rows compared."""

    built: bool
    position: int | None
    head: int
    tables: int = 0
    rows: int = 0
    differences: tuple[Difference, ...] = ()

    @property
    def behind(self) -> int:
        """Events stored after the tracked position (not folded yet: lag, not tampering)."""
        return max(self.head - (self.position or 0), 0)

    @property
    def ahead(self) -> int:
        """How far the tracked position is past the log's last event (events gone from it)."""
        return max((self.position or 0) - self.head, 0)

    @property
    def agrees(self) -> bool:
        """Nothing stored differs from the fold (lag alone is agreement so far)."""
        return not self.differences and not self.ahead


def compare(store: MatchStore, engine: Engine, batch: int = BATCH,
            each: Each | None = None) -> Comparison:
    """The read models at `engine` (the store's own database, only read) compared with the
    log of `store` folded again up to their tracked position; `each` is called after each
    folded batch (a progress bar)."""
    with _snapshot(engine) as conn:
        if not _built(conn):
            return Comparison(False, None, _head(store))
        position = conn.execute(select(Tracked.notification_id).where(
            Tracked.application_name == store.name)).scalar()
        head = _head(store)
        with fresh_fold(store, None if position is None else int(position), batch,
                        each) as folded:
            differences: list[Difference] = []
            rows = 0
            with folded.connect() as expected:
                for table in folded_tables():
                    stored_rows = _rows(conn, table)
                    rows += len(stored_rows)
                    differences.extend(_differences(table, _rows(expected, table),
                                                    stored_rows))
    at = None if position is None else int(position)
    if (at or 0) > head:   # folded from events the log no longer holds
        differences.append(Difference(Tracked.__tablename__,
                                      (("application_name", store.name),), DIFFERS,
                                      "notification_id", head, at))
    return Comparison(True, at, head, len(folded_tables()), rows, tuple(differences))


def _head(store: MatchStore) -> int:
    return int(store.recorder.max_notification_id() or 0)


def _built(conn: Connection) -> bool:
    names = set(inspect(conn).get_table_names())
    return (all(table.name in names for table in folded_tables())
            and Tracked.__tablename__ in names and stored_version(conn) == SCHEMA_VERSION)


@contextmanager
def fresh_fold(store: MatchStore, upto: int | None, batch: int = BATCH,
               each: Each | None = None) -> Iterator[Engine]:
    """Fresh read models in a temporary SQLite file, folded from the log's first event up to
    notification `upto` (None: nothing folded), by the rebuild's own code; removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="verbale-fold-") as folder:
        engine = read_model_engine(f"sqlite:///{Path(folder) / 'fold.db'}")
        try:
            if upto is None:
                ensure_schema(engine)
            elif each is None:
                catch_up(store, engine, batch, stop=upto)
            else:
                catch_up(store, engine, batch, each, stop=upto)
            yield engine
        finally:
            engine.dispose()


@contextmanager
def _snapshot(engine: Engine) -> Iterator[Connection]:
    """One connection reading in one snapshot until closed, writing nothing."""
    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                conn.exec_driver_sql("SET TRANSACTION READ ONLY")
                yield conn
            return
        with conn.begin():
            raw: Any = conn.connection.dbapi_connection
            if not raw.in_transaction:   # a driver left in autocommit (reading_engine)
                conn.exec_driver_sql("BEGIN")
            yield conn


Rows = dict[tuple[Any, ...], dict[str, Any]]


def _rows(conn: Connection, table: Table) -> Rows:
    keys = [column.name for column in table.primary_key.columns]
    found: Rows = {}
    for row in conn.execute(select(table)):
        values = dict(row._mapping)
        found[tuple(values[name] for name in keys)] = values
    return found


def _same(expected: Any, stored: Any) -> bool:
    """Equal and of the same type (a number stored as text is not the number)."""
    return type(expected) is type(stored) and bool(expected == stored)


def _differences(table: Table, expected: Rows, stored: Rows) -> list[Difference]:
    keys = [column.name for column in table.primary_key.columns]
    columns = [column.name for column in table.columns if column.name not in keys]
    found: list[Difference] = []
    for key in sorted(expected.keys() | stored.keys(), key=repr):
        named = tuple(zip(keys, key, strict=True))
        if key not in stored:
            found.append(Difference(table.name, named, MISSING))
        elif key not in expected:
            found.append(Difference(table.name, named, EXTRA))
        else:
            found.extend(Difference(table.name, named, DIFFERS, name, expected[key][name],
                                    stored[key][name])
                         for name in columns
                         if not _same(expected[key][name], stored[key][name]))
    return found
