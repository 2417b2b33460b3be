"""The verdicts of `verbale verify --record`, written into `rm_verdetti` for the match list.

A verdict is a check of the events, not a fold of them: it is written by verify, one row per
match (upserted: the last check replaces the one before), at the version of the last event
verify read. The match list shows it only while the match has no later event
(queries.py compares it with the match's version): a verdict never speaks for events it did not
see. The events themselves are only read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.dialects.postgresql import insert as postgres_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from domain.record.audit import Severity
from projections.read_models.engine import writing
from projections.read_models.schema import Verdetto, ensure_schema
from projections.store.verify import Verdict

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
