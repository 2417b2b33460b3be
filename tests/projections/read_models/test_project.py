"""The read models fed from the notification log (projections/read_models), on both databases.

Every row is checked against the full replay of its match (`MatchStore.load`) and its facts; the
incremental tables against a rebuild, row for row; a catch-up that fails mid-way against a clean
run; a change of the tables' schema version against a fresh fold.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from typing import Any
from unittest.mock import patch
from uuid import UUID

import pytest
from click.testing import CliRunner
from eventsourcing.persistence import Tracking
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from domain.demo.matches import demo_set
from domain.events import SmazzataDealt
from domain.record.commands import RecordRuling
from domain.record.envelope import RecordedBy
from domain.record.events import IrregularityNoted, MatchResumed, RulingRecorded
from domain.record.match import MatchState
from domain.shuffle import Seed
from projections.read_models.project import (
    TrackingMoved,
    advance,
    catch_up,
    position,
    rebuild,
)
from projections.read_models.schema import SCHEMA_VERSION, reset
from projections.store.app import MatchStore
from projections.store.facts import TOPIC_OF
from projections.store.listing import list_matches
from replay_web.cli import _register, cli
from tests.projections.conftest import Backend
from tests.projections.read_models.rows import opened

SEED = "5eed0000000000000000000000000001"
AT = datetime(2026, 11, 23, 9, 30, tzinfo=UTC)
ARBITER = RecordedBy("arbiter", "Rossi")
TABLES = ("rm_partite", "rm_smazzate")


def _simulate(url: str, *count: str) -> None:
    _register()
    # Without the command's own catch-up (replay_web/read_models.py): these tests fold.
    with patch("replay_web.cli_store.catch_up_read_models", return_value=None):
        result = CliRunner().invoke(cli, ["simulate", "matches", *count, "--store",
                                          "--database", url])
    assert result.exit_code == 0, result.output




def _rows(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    with engine.connect() as conn:
        return {table: sorted(tuple(row) for row in conn.execute(text(f"SELECT * FROM {table}")))
                for table in TABLES}


def _partite(engine: Engine) -> dict[str, dict[str, Any]]:
    with engine.connect() as conn:
        found = conn.execute(text("SELECT * FROM rm_partite")).mappings()
        return {row["stream"]: dict(row) for row in found}


def _matches(store: MatchStore) -> dict[str, MatchState]:
    created = TOPIC_OF["MatchCreated"]
    streams = [s for s in store.streams() if store.stored(s)[0].topic == created]
    return {str(stream): store.load(stream).state for stream in streams}


def _annul_first_smazzata(store: MatchStore) -> str:
    """An arbiter annuls smazzata 0 of the first ended match with two or more smazzate."""
    for stream, state in sorted(_matches(store).items()):
        if state.result is not None and state.forfeit is None and len(state.ended) >= 2:
            ruling = RecordRuling("Rossi", "carte viste", "annul-smazzata", smazzata=0)
            store.execute(UUID(stream), ruling, AT, ARBITER)
            return stream
    raise AssertionError("no match to annul a smazzata of")


def test_catch_up_folds_every_match_as_its_replay(backend: Backend) -> None:
    _simulate(backend.url)
    with opened(backend.url) as (store, engine):
        annulled_in = _annul_first_smazzata(store)
        just_created = str(store.create_match(demo_set(Seed.from_hex(SEED), 1)[0].setup, AT,
                                              ARBITER))
        read = catch_up(store, engine, batch=300)
        assert read == store.recorder.max_notification_id()
        partite, matches = _partite(engine), _matches(store)
        assert set(partite) == set(matches)
        for stream, state in matches.items():
            _check_partita(partite[stream], state, store.facts(UUID(stream)))
        _check_smazzate(engine, matches)
        assert partite[annulled_in]["rulings"] >= 1
        assert partite[just_created]["state"] == "in-progress"
        assert sum(row["irregularities"] for row in partite.values()) == 2
        assert catch_up(store, engine) == 0


def test_a_match_resumed_by_a_ruling_is_in_progress_again(backend: Backend) -> None:
    """The ruling annuls the last smazzata of an ended match: without it the match is not over
    (MatchResumed). Its row, the listing and the standings take the result back."""
    _simulate(backend.url)
    with opened(backend.url) as (store, engine):
        catch_up(store, engine)
        stream, state = next((s, m) for s, m in sorted(_matches(store).items())
                             if m.result is not None and m.forfeit is None)
        assert _partite(engine)[stream]["state"] == "ended"
        ruling = RecordRuling("Rossi", "carte viste", "annul-smazzata",
                              smazzata=state.ended[-1].number)
        store.execute(UUID(stream), ruling, AT, ARBITER)
        assert isinstance(store.facts(UUID(stream))[-1].to_domain(), MatchResumed)
        catch_up(store, engine)
        row = _partite(engine)[stream]
        assert (row["state"], row["score_0"], row["winner"], row["vp_0"], row["how"]) == (
            "in-progress", None, None, None, None)
        _check_partita(row, store.load(UUID(stream)).state, store.facts(UUID(stream)))
        (listed,) = [m for m in list_matches(store).matches if str(m.stream) == stream]
        assert listed.ending is None
        incremental = _rows(engine)
        rebuild(store, engine)
        assert _rows(engine) == incremental


def _check_partita(row: dict[str, Any], state: MatchState, facts: list[Any]) -> None:
    created = state.created
    assert created is not None
    assert (row["game"], row["tournament"], row["round"], row["table_number"]) == (
        created.game, created.tournament, created.round, created.table)
    assert json.loads(row["players"]) == list(created.players)
    assert row["created"] == facts[0].timestamp
    assert row["smazzate"] == len(state.ended)
    events = [fact.to_domain() for fact in facts]
    assert row["rulings"] == sum(isinstance(e, RulingRecorded) for e in events)
    assert row["irregularities"] == sum(isinstance(e, IrregularityNoted) for e in events)
    result = state.result
    if result is None:
        assert (row["state"], row["score_0"], row["winner"]) == ("in-progress", None, None)
        return
    assert row["state"] == "ended"
    assert (row["score_0"], row["score_1"], row["winner"]) == (*result.scores, result.winner)
    assert result.settlement is not None
    assert (row["how"], row["mp"], row["unit"]) == (
        result.settlement.how, result.settlement.mp, result.settlement.unit)


def _check_smazzate(engine: Engine, matches: dict[str, MatchState]) -> None:
    with engine.connect() as conn:
        every = conn.execute(text("SELECT * FROM rm_smazzate")).mappings().all()
    rows = [row for row in every if row["ended"]]
    assert len(rows) == sum(len(state.ended) for state in matches.values())
    dealt = {(row["stream"], row["number"]) for row in every if not row["ended"]}
    for stream, number in dealt:   # dealt, not ended: the smazzata in progress of its match
        state = matches[stream]
        assert state.result is None or state.forfeit is not None
        assert number == len(state.ended)
    for row in rows:
        state = matches[row["stream"]]
        ended = next(e for e in state.ended if e.number == row["number"])
        assert (row["points_0"], row["points_1"]) == ended.scores
        assert json.loads(row["breakdown"]) == [list(line) for line in ended.breakdown]
        assert row["cappotto"] == (ended.outcome.cappotto if ended.outcome else None)
        assert bool(row["annulled"]) == (row["number"] in state.annulled)
    assert any(bool(row["annulled"]) for row in rows)


def test_dealer_of_each_smazzata_is_its_deal(backend: Backend) -> None:
    _simulate(backend.url, "--count", "4")
    with opened(backend.url) as (store, engine):
        catch_up(store, engine)
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT stream, number, dealer FROM rm_smazzate")).all()
        for stream, number, dealer in rows:
            dealt = [e for e in (f.to_domain() for f in store.facts(UUID(stream)))
                     if isinstance(e, SmazzataDealt) and e.number == number]
            assert dealer == dealt[-1].dealer


def test_incremental_equals_rebuild_row_for_row(backend: Backend) -> None:
    _simulate(backend.url, "--count", "4")
    with opened(backend.url) as (store, engine):
        assert catch_up(store, engine, batch=100) > 0
        first = _rows(engine)
    _simulate(backend.url, "--count", "8")
    with opened(backend.url) as (store, engine):
        _annul_first_smazzata(store)
        catch_up(store, engine, batch=100)
        incremental = _rows(engine)
        assert len(incremental["rm_partite"]) == 8 > len(first["rm_partite"])
        assert rebuild(store, engine, batch=37) == store.recorder.max_notification_id()
        assert _rows(engine) == incremental
        assert position(engine, store.name) == store.recorder.max_notification_id()


class Interrupted(RuntimeError):
    pass


def test_a_restart_resumes_after_the_last_committed_batch(backend: Backend) -> None:
    _simulate(backend.url, "--count", "8")
    batches: list[Tracking] = []

    def fail_at_third(tracking: Tracking) -> None:
        batches.append(tracking)
        if len(batches) == 3:
            raise Interrupted

    with opened(backend.url) as (store, engine):
        with pytest.raises(Interrupted):
            catch_up(store, engine, batch=40, each=fail_at_third)
        # The third batch was rolled back whole: its rows and its position.
        assert position(engine, store.name) == batches[1].notification_id
        last = store.recorder.max_notification_id()
        assert last is not None
        assert catch_up(store, engine, batch=40) == last - batches[1].notification_id
        resumed = _rows(engine)
        assert position(engine, store.name) == store.recorder.max_notification_id()
        rebuild(store, engine)
        assert _rows(engine) == resumed


def test_a_new_schema_version_drops_and_rebuilds(backend: Backend) -> None:
    _simulate(backend.url, "--count", "4")
    with opened(backend.url) as (store, engine):
        catch_up(store, engine)
        clean = _rows(engine)
        with engine.begin() as conn:
            conn.execute(text("UPDATE rm_schema SET version = :v"), {"v": SCHEMA_VERSION - 1})
            conn.execute(text("UPDATE rm_partite SET rulings = 99"))
            conn.execute(text("CREATE TABLE rm_left_over (x INTEGER)"))
        assert catch_up(store, engine) == store.recorder.max_notification_id()
        assert _rows(engine) == clean
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version FROM rm_schema")).scalars().all() == [
                SCHEMA_VERSION]
            assert "rm_left_over" not in inspect(conn).get_table_names()


def test_the_position_only_moves_forward_from_where_the_batch_began(backend: Backend) -> None:
    _simulate(backend.url, "--count", "2")
    with opened(backend.url) as (store, engine):
        catch_up(store, engine)
        last = position(engine, store.name)
        assert last is not None and last > 10
        for start, to in ((5, last + 1), (last, last - 1), (last, last), (None, last + 1)):
            with Session(engine) as session, session.begin(), pytest.raises(
                    (TrackingMoved, IntegrityError)):
                advance(session, start, Tracking(store.name, to))
        assert position(engine, store.name) == last


def test_two_catch_ups_at_once_fold_each_event_once(backend: Backend) -> None:
    _simulate(backend.url, "--count", "6")
    errors: list[BaseException] = []

    def run() -> None:
        try:
            with opened(backend.url) as (store, engine):
                catch_up(store, engine, batch=25)
        except BaseException as error:
            errors.append(error)

    with opened(backend.url) as (store, engine):
        catch_up(store, engine, batch=1)   # the tables exist before the race
        with engine.begin() as conn:
            reset(conn)
        threads = [threading.Thread(target=run) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        raced = _rows(engine)
        assert position(engine, store.name) == store.recorder.max_notification_id()
        rebuild(store, engine)
        assert _rows(engine) == raced
