"""`verbale verify --read-models` (and `--against`, which implies it): the read-model tables
compared with a fold of the record (projections/read_models/compare.py), what is printed, and
the check recorded for the viewer and the reading commands (projections/read_models/verdicts.py).

Lag is said on its own line and is no failure; a difference, or tables folded from events the
log no longer holds, is a failure (exit 1). The check is recorded where the store can be
written; where it cannot, a line on standard error says so and the exit code is the check's.
"""

from __future__ import annotations

import json

import click

from projections.read_models.compare import DIFFERS, MISSING, Comparison, Difference
from projections.store.app import MatchStore
from projections.store.config import database_url
from replay_web.cli import classify
from replay_web.i18n import _, ngettext
from replay_web.progress import bar


def compared_read_models(store: MatchStore, database: str | None) -> Comparison:
    """The read models of the store `--database` names, only read, against the record."""
    from projections.read_models.compare import compare
    from projections.read_models.engine import reading_engine

    engine = reading_engine(database or database_url())
    try:
        with bar(store.recorder.max_notification_id(),
                 _("folding the record again")) as done:
            return compare(store, engine, each=lambda tracking: done(tracking.notification_id))
    finally:
        engine.dispose()


def _value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def difference_line(difference: Difference) -> str:
    """`    rm_partite stream=…: winner is 1, the record gives 0`."""
    where = f"{difference.table} {difference.where}"
    if difference.kind == DIFFERS:
        said = _("{column} is {stored}, the record gives {expected}").format(
            column=difference.column, stored=_value(difference.stored),
            expected=_value(difference.expected))
    elif difference.kind == MISSING:
        said = _("missing: the record gives this row")
    else:
        said = _("a row the record does not give")
    return f"    {where}: {said}"


def read_model_lines(found: Comparison) -> list[str]:
    """What verify prints of the comparison: the verdict, each difference, the lag."""
    if not found.built:
        return [_("the read models are not built in this store: nothing to compare; "
                  "'verbale project' builds them")]
    lines: list[str] = []
    if found.agrees:
        lines.append(_("the read models agree with the record: {tables} tables, {rows}").format(
            tables=found.tables, rows=ngettext(
                "{n} row compared with a fold of the record",
                "{n} rows compared with a fold of the record", found.rows).format(n=found.rows)))
    else:
        lines.append(_("the read models disagree with the record: {differences}").format(
            differences=ngettext("{n} difference", "{n} differences",
                                 len(found.differences)).format(n=len(found.differences))))
        lines.extend(difference_line(d) for d in found.differences)
        if found.ahead:
            lines.append("    " + ngettext(
                "they were folded from {n} event the log no longer holds (their position "
                "{position}, the log ends at {head})",
                "they were folded from {n} events the log no longer holds (their position "
                "{position}, the log ends at {head})", found.ahead).format(
                    n=found.ahead, position=found.position, head=found.head))
        lines.append("    " + _("'verbale rebuild' folds them again from the record"))
    if found.behind:
        lines.append(ngettext(
            "the read models are {n} event behind the record; run 'verbale project'",
            "the read models are {n} events behind the record; run 'verbale project'",
            found.behind).format(n=found.behind))
    return lines


def record_check(found: Comparison, database: str | None) -> None:
    """The check written where the viewer and the reading commands look; a store that cannot
    be written is a line on standard error (the check's exit code stands)."""
    from projections.read_models.engine import read_model_engine
    from projections.read_models.verdicts import record_comparison

    if not found.built:
        return
    try:
        engine = read_model_engine(database or database_url())
        try:
            record_comparison(engine, found)
        finally:
            engine.dispose()
    except Exception as error:   # the check is printed; only its record failed
        click.echo(_("verbale: the check of the read models could not be recorded in the "
                     "store: {reason}").format(reason=classify(error)[1]), err=True)
