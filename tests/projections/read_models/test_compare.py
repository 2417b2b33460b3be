"""Issue 23, point 12: the stored read models compared with a fold of the log (compare.py), on
SQLite and PostgreSQL. A clean store agrees (and, property, after random matches recorded with
random catch-ups between the appends); a winner or a score changed with SQL, a row deleted or
added, a Tarocchi standings row changed, a tracking position moved past the log's end are each
named (table, row, column, folded and stored value); events not folded yet are lag, counted,
not a difference."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from projections.read_models.compare import DIFFERS, EXTRA, MISSING, Difference, compare
from projections.read_models.project import catch_up, position, rebuild
from projections.store.app import MatchStore
from tests.projections.conftest import Backend
from tests.projections.read_models.match_plans import (
    FIXED_PLANS,
    MatchPlan,
    Recording,
    match_plans,
)
from tests.projections.read_models.rows import opened, table_rows
from tests.projections.read_models.tampering import execute, fetch, flip_winner, raise_score
from tests.projections.read_models.test_tarocchi_read_models import store_example

EXAMPLES = max(4, settings().max_examples // 5)


@contextmanager
def recorded(backend: Backend, plans: tuple[MatchPlan, ...] = FIXED_PLANS[:4]
             ) -> Iterator[tuple[MatchStore, Engine, list[str]]]:
    """`plans` recorded whole and folded; the matches' ids."""
    with opened(backend.url) as (store, engine):
        recording = Recording(store, plans)
        recording.start()
        recording.finish()
        catch_up(store, engine)
        yield store, engine, [str(s) for s in recording.streams]


def ended(backend: Backend, streams: list[str]) -> str:
    """The first of `streams` with a winner."""
    return next(s for s in streams if fetch(
        backend, "SELECT winner FROM {0} WHERE stream = ?", (s,), "rm_partite")[0][0]
        is not None)


def test_a_clean_store_agrees_with_its_fold(backend: Backend) -> None:
    with recorded(backend, FIXED_PLANS) as (store, engine, _):
        store_example(store, "torneo-12.txt")
        catch_up(store, engine)
        found = compare(store, engine)
        assert found.built and found.agrees and found.differences == ()
        assert found.behind == 0 and found.ahead == 0
        assert found.position == store.recorder.max_notification_id()
        assert found.rows == sum(len(rows) for name, rows in table_rows(engine).items()
                                 if name != "rm_verdetti")
        assert found.tables >= 17


def test_read_model_tamper_winner_and_score_are_named(backend: Backend) -> None:
    with recorded(backend) as (store, engine, streams):
        match = ended(backend, streams)
        winner = flip_winner(backend, match)
        score = raise_score(backend, match)
        found = compare(store, engine)
        assert not found.agrees and found.behind == 0
        key = (("stream", match),)
        assert set(found.differences) == {
            Difference("rm_partite", key, DIFFERS, "winner", *winner),
            Difference("rm_partite", key, DIFFERS, "score_0", *score)}
        assert {d.stream for d in found.differences} == {match}
        assert found.differences[0].where == f"stream={match}"


def test_read_model_tamper_rows_deleted_or_added_are_named(backend: Backend) -> None:
    with recorded(backend) as (store, engine, streams):
        match = ended(backend, streams)
        execute(backend, "DELETE FROM {0} WHERE stream = ? AND number = 0", (match,),
                "rm_smazzate")
        execute(backend, "UPDATE {0} SET vp = vp + 5 WHERE line IN (SELECT line FROM {0} "
                         "ORDER BY line LIMIT 1)", (), "rm_linee")
        execute(backend, "INSERT INTO {0} (name, matches, ended, won, drawn, lost, smazzate, "
                         "vp, mp, accusi, accusi_points, scope, timeouts, abandons) VALUES "
                         "('mallory', 1, 1, 1, 0, 0, 3, 20, 9, 0, 0, 0, 0, 0)", (),
                "rm_giocatori")
        found = compare(store, engine)
        kinds = {(d.table, d.kind, d.column) for d in found.differences}
        assert kinds == {("rm_smazzate", MISSING, None), ("rm_linee", DIFFERS, "vp"),
                         ("rm_giocatori", EXTRA, None)}
        missing = next(d for d in found.differences if d.kind == MISSING)
        assert missing.key == (("stream", match), ("number", 0))
        extra = next(d for d in found.differences if d.kind == EXTRA)
        assert (extra.key, extra.stream) == ((("name", "mallory"),), None)


def test_read_model_tamper_tarocchi_standings_are_named(backend: Backend) -> None:
    with opened(backend.url) as (store, engine):
        stream = str(store_example(store, "torneo-12.txt").stream)
        catch_up(store, engine)
        execute(backend, "UPDATE {0} SET points = points + 100 WHERE stream = ? AND turn = 4 "
                         "AND number = 5", (stream,), "rm_tarocchi_classifica")
        [difference] = compare(store, engine).differences
        assert (difference.table, difference.column, difference.stream) == (
            "rm_tarocchi_classifica", "points", stream)
        assert difference.key == (("stream", stream), ("turn", 4), ("number", 5))
        assert difference.stored == difference.expected + 100


def test_read_model_lag_is_counted_not_a_difference(backend: Backend) -> None:
    with opened(backend.url) as (store, engine):
        recording = Recording(store, FIXED_PLANS[:2])
        recording.start()
        recording.append(0, 40)
        catch_up(store, engine)
        folded = position(engine, store.name)
        assert folded is not None
        recording.append(0, 25)
        recording.append(1, 30)
        found = compare(store, engine)
        assert found.agrees and found.position == folded
        assert found.behind == (store.recorder.max_notification_id() or 0) - folded > 0


def test_read_model_position_past_the_log_is_named(backend: Backend) -> None:
    with recorded(backend, FIXED_PLANS[:1]) as (store, engine, _):
        head = store.recorder.max_notification_id() or 0
        execute(backend, "UPDATE {0} SET notification_id = ?", (head + 7,), "rm_tracking")
        found = compare(store, engine)
        assert found.ahead == 7 and found.behind == 0 and not found.agrees
        assert found.differences == (Difference(
            "rm_tracking", (("application_name", store.name),), DIFFERS, "notification_id",
            head, head + 7),)


def test_no_read_models_is_not_built(backend: Backend) -> None:
    with opened(backend.url) as (store, engine):
        Recording(store, FIXED_PLANS[:1]).start()
        found = compare(store, engine)
        assert not found.built and found.head == store.recorder.max_notification_id()


@contextmanager
def _fresh_sqlite() -> Iterator[tuple[MatchStore, Engine]]:
    with tempfile.TemporaryDirectory() as folder, \
            opened(f"sqlite:///{Path(folder) / 'verbale.db'}") as both:
        yield both


@settings(max_examples=EXAMPLES)
@given(plans=st.lists(match_plans(), min_size=1, max_size=3, unique_by=lambda p: p.seed),
       batches=st.lists(st.integers(1, 200), min_size=1, max_size=6),
       sizes=st.lists(st.integers(1, 120), min_size=1, max_size=6))
def test_random_matches_folded_incrementally_agree_and_equal_a_rebuild(
        plans: list[MatchPlan], batches: list[int], sizes: list[int]) -> None:
    """Random matches recorded with catch-ups of random batch sizes between the appends: the
    check agrees at every catch-up (what is not folded yet only lags), and once everything is
    folded the tables equal a rebuild and the check still agrees."""
    with _fresh_sqlite() as (store, engine):
        recording = Recording(store, plans)
        recording.start()
        step = 0
        while recording.append(step, sizes[step % len(sizes)]):
            catch_up(store, engine, batch=batches[step % len(batches)])
            recording.append(step + 1, sizes[(step + 1) % len(sizes)])
            found = compare(store, engine)
            assert found.agrees, found.differences
            assert found.behind == (store.recorder.max_notification_id() or 0) - (
                position(engine, store.name) or 0)
            step += 1
        catch_up(store, engine)
        incremental = table_rows(engine)
        assert compare(store, engine).agrees
        rebuild(store, engine, batch=batches[0])
        assert table_rows(engine) == incremental
