"""The verdicts of `verbale verify --record`, written into `rm_verdetti` for the match list.

A verdict is a check of the events, not a fold of them: it is written by verify, one row per
match (upserted: the last check replaces the one before), at the version of the last event
verify read. The match list shows it only while the match has no later event
(queries.py compares it with the match's version): a verdict never speaks for events it did not
see. The events themselves are only read.

What `verbale verify --read-models` found (compare.py) is kept the same way: `rm_confronto` one
row, the last check (when, the position it compared at, how many differences), and
`rm_differenze` its differences (the first DIFFERENCES_KEPT), for the viewer and the reading
commands to say that the read models disagree with the record. Those two tables are not part of
the layout: they are created by the first check recorded, and dropped with every other `rm_`
table by a rebuild, whose fresh fold no earlier check speaks for.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BigInteger, Engine, String, Text, delete, insert, inspect, select
from sqlalchemy.dialects.postgresql import insert as postgres_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from domain.record.audit import Severity
from projections.read_models.compare import Comparison, Difference
from projections.read_models.engine import writing
from projections.read_models.schema import Verdetto, ensure_schema
from projections.verify.verdicts import Verdict

OK, WARNING, ERROR = "ok", "warning", "error"
STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"   # the stored events' timestamps (docs/events.md)


def verdict_word(verdict: Verdict) -> str:
    """"error" when a check failed; "warning" when the record is sound but holds noted
    irregularities or checks that could not be made (a transcribed match); else "ok"."""
    worst = verdict.verdict
    if worst is None:
        return OK
    return ERROR if worst is Severity.FAILURE else WARNING


def verdict_rows(verdicts: Iterable[Verdict], checked: str) -> list[dict[str, Any]]:
    """The rows of the matches' verdicts (tournaments have no line in the match list)."""
    return [{"stream": str(v.stream), "version": v.events, "verdict": verdict_word(v),
             "findings": len(v.problems), "checked": checked}
            for v in verdicts if v.category == "match"]


def record_verdicts(engine: Engine, verdicts: Sequence[Verdict],
                    at: datetime | None = None) -> int:
    """Upsert one row per match of `verdicts` into rm_verdetti (creating the read models'
    tables if missing), in one transaction; return how many rows were written."""
    rows = verdict_rows(verdicts, (at or datetime.now(UTC)).strftime(STAMP))
    ensure_schema(engine)
    if not rows:
        return 0
    dialect = engine.dialect.name
    insert = postgres_insert if dialect == "postgresql" else sqlite_insert
    statement = insert(Verdetto)
    upsert = statement.on_conflict_do_update(
        index_elements=[Verdetto.stream],
        set_={name: statement.excluded[name] for name in ("version", "verdict", "findings",
                                                          "checked")})
    with writing(engine).begin() as conn:
        conn.execute(upsert, rows)
    return len(rows)


# ---- The last check of the read models against the record (verify --read-models) ----------

DIFFERENCES_KEPT = 1000
"""Differences of a check written into rm_differenze (the count is always the whole)."""


class _Checks(DeclarativeBase):
    pass


class Confronto(_Checks):
    """The last check of the read models against a fold of the record: when, the position the
    tables were at (`position`, null: none folded), the log's last event then (`head`), and
    how many differences it found (`ahead`: events the tables were folded from that the log no
    longer holds)."""

    __tablename__ = "rm_confronto"

    name: Mapped[str] = mapped_column(String(16), primary_key=True)
    checked: Mapped[str] = mapped_column(String(32))
    position: Mapped[int | None] = mapped_column(BigInteger)
    head: Mapped[int] = mapped_column(BigInteger)
    differences: Mapped[int]
    ahead: Mapped[int] = mapped_column(BigInteger)


class Differenza(_Checks):
    """A difference the last check found: the table, the row's key (JSON `[[column, value]]`),
    the match or tournament it belongs to (null: a player's row, a count), its kind (missing,
    extra, differs) and, for `differs`, the column with the value of the fold and the stored
    one (JSON)."""

    __tablename__ = "rm_differenze"

    number: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    table_name: Mapped[str] = mapped_column(String(64))
    row_key: Mapped[str] = mapped_column(Text)
    stream: Mapped[str | None] = mapped_column(String(300))
    kind: Mapped[str] = mapped_column(String(16))
    column_name: Mapped[str | None] = mapped_column(String(64))
    expected: Mapped[str | None] = mapped_column(Text)
    stored: Mapped[str | None] = mapped_column(Text)


CHECK = "read-models"


@dataclass(frozen=True, slots=True)
class Checked:
    """The last check recorded: when, at which position, how many differences."""

    checked: str
    position: int | None
    head: int
    differences: int
    ahead: int

    @property
    def disagrees(self) -> bool:
        return self.differences > 0 or self.ahead > 0


def record_comparison(engine: Engine, comparison: Comparison,
                      at: datetime | None = None) -> None:
    """Replace the last check recorded by `comparison` (creating its tables if missing), in
    one transaction. A comparison of no tables (not built) records nothing."""
    if not comparison.built:
        return
    with writing(engine).begin() as conn:
        _Checks.metadata.create_all(conn)
        conn.execute(delete(Differenza))
        conn.execute(delete(Confronto))
        conn.execute(insert(Confronto).values(
            name=CHECK, checked=(at or datetime.now(UTC)).strftime(STAMP),
            position=comparison.position, head=comparison.head,
            differences=len(comparison.differences), ahead=comparison.ahead))
        rows = [_difference_row(number, d) for number, d in
                enumerate(comparison.differences[:DIFFERENCES_KEPT])]
        if rows:
            conn.execute(insert(Differenza), rows)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _difference_row(number: int, difference: Difference) -> dict[str, Any]:
    differs = difference.column is not None
    return {"number": number, "table_name": difference.table,
            "row_key": _json([list(pair) for pair in difference.key]),
            "stream": difference.stream, "kind": difference.kind,
            "column_name": difference.column,
            "expected": _json(difference.expected) if differs else None,
            "stored": _json(difference.stored) if differs else None}


def last_comparison(engine: Engine) -> Checked | None:
    """The last check recorded, None if none was (or the tables were rebuilt since)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table(Confronto.__tablename__):
            return None
        row = conn.execute(select(Confronto).where(Confronto.name == CHECK)).first()
    if row is None:
        return None
    found = row._mapping
    return Checked(found["checked"], found["position"], found["head"], found["differences"],
                   found["ahead"])


@dataclass(frozen=True, slots=True)
class StoredDifference:
    """A difference as recorded: values as JSON text (null: a whole row)."""

    table: str
    where: str
    kind: str
    column: str | None
    expected: str | None
    stored: str | None


def recorded_differences(engine: Engine, stream: str | None = None,
                         limit: int = DIFFERENCES_KEPT) -> list[StoredDifference]:
    """The differences the last check recorded (those of the match or tournament `stream`)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table(Differenza.__tablename__):
            return []
        query = select(Differenza).order_by(Differenza.number).limit(limit)
        if stream is not None:
            query = query.where(Differenza.stream == stream)
        return [StoredDifference(
            row.table_name, ", ".join(f"{k}={v}" for k, v in json.loads(row.row_key)),
            row.kind, row.column_name, row.expected, row.stored)
            for row in conn.execute(query)]
