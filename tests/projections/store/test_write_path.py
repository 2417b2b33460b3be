"""The store's one write path (projections/store/app.py), on SQLite and PostgreSQL.

A store built from an environment mapping is the store built from its URL; `execute_batch`
decides whole runs of actions and records all of them in one transaction or nothing (a refusal
names its stream and action); every stored record carries the envelope of the action that made
it, and an envelope tampered into a bad shape is reported by `verify` as `[envelope]`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest

import projections.auditor.audit as outside
from domain.cirulla.ruleset import STANDARD
from domain.demo.matches import BOTS, NAMES, DemoMatch, seeded_match
from domain.game import DeclareAccuso, PlayCard, RuleViolation
from domain.match_format import MatchFormat
from domain.record.catalog import CATALOG
from domain.record.commands import (
    CommitSeed,
    ContributeSeed,
    CreateMatch,
    DealSmazzata,
    MatchCommand,
    RecordRuling,
)
from domain.record.decide import decide
from domain.record.envelope import RecordedBy, arbiter, seat
from domain.record.match import MatchState, Phase, evolve, initial
from domain.record.simulate import Table, next_command
from domain.shuffle import Seed
from projections.store.app import Action, BatchRefused, MatchStore
from projections.store.canonical import canonical_json
from projections.store.config import StoreConfigError, store_env
from projections.store.export import export_jsonl
from projections.verify.streams import verify_store
from projections.verify.structure import envelope_problems
from tests.projections.conftest import Backend, make_backend
from tests.projections.store.tampering import Tamperer

START = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
SIMULATOR = RecordedBy("simulator", "verbale tests")
HOUSE = RecordedBy("house", "tavolo 3")


def _demo(game: str, seed_byte: int) -> DemoMatch:
    fmt = MatchFormat.parse("1smazzate", game)
    return seeded_match(game, fmt, STANDARD if game == "cirulla" else None, NAMES[:2],
                        Seed(bytes([seed_byte]) * 16))


def _by(state: MatchState, command: MatchCommand) -> RecordedBy:
    """Who records what at a live table: the seats their plays, the house the rest."""
    if isinstance(command, PlayCard | DeclareAccuso):
        assert state.created is not None
        return seat(state.created.players[command.seat], command.seat)
    if isinstance(command, RecordRuling):
        return arbiter(command.arbiter)
    if isinstance(command, CreateMatch):
        return SIMULATOR
    return HOUSE


def actions(demo: DemoMatch) -> tuple[list[Action], MatchState]:
    """The match's actions, decided locally, and the state they lead to."""
    state, at = initial(CATALOG), START
    table = Table(demo.match_seed, BOTS[demo.setup.game], demo.incidents)
    made: list[Action] = []
    command: MatchCommand = demo.setup
    while True:
        made.append((command, at, _by(state, command)))
        for event in decide(state, command, at):
            state = evolve(state, event, at)
        step = next_command(state, table, at)
        if step is None:
            return made, state
        command, at, table = step


def _execute(store: MatchStore, stream: UUID, run: Sequence[Action]) -> list[int]:
    """Execute one action after another; the version after each."""
    versions = []
    loaded = None
    for command, at, by in run:
        loaded = store.execute(stream, command, at, by, loaded)
        versions.append(loaded.version)
    return versions


def _records(store: MatchStore, stream: UUID) -> list[dict[str, Any]]:
    return [json.loads(row.state) for row in store.stored(stream)]


def test_a_store_from_an_environment_mapping_is_the_store_of_its_url(backend: Backend) -> None:
    run, final = actions(_demo("cirulla", 0x61))
    stream = uuid4()
    from_env = MatchStore(env={"VERBALE_DATABASE_URL": backend.url}, catalog=CATALOG)
    try:
        _execute(from_env, stream, run[:len(run) // 2])
    finally:
        from_env.close()
    from_url = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        half = from_url.load(stream)
        _execute(from_url, stream, run[len(run) // 2:])
        rows = [row.state for row in from_url.stored(stream)]
        (verdict,) = verify_store(from_url, stream)
    finally:
        from_url.close()
    # The library's own variables, as the eventsourcing ProjectionRunner passes them.
    from_library = MatchStore(env=store_env(backend.url), catalog=CATALOG)
    try:
        assert [row.state for row in from_library.stored(stream)] == rows
        assert from_library.load(stream).state == final
    finally:
        from_library.close()
    assert half.version > 0 and half.state.phase is not Phase.ENDED
    assert verdict.ok and verdict.problems == () and verdict.note is None


def test_a_batch_of_two_new_streams_is_recorded_in_one_call_and_verifies(
        backend: Backend) -> None:
    (cirulla, cirulla_end), (briscola, briscola_end) = (actions(_demo("cirulla", 0x62)),
                                                        actions(_demo("briscola", 0x63)))
    first, second = uuid4(), uuid4()
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        after = store.execute_batch([(first, cirulla), (second, briscola)])
        stored = {s: len(store.stored(s)) for s in (first, second)}
        loaded = {s: store.load(s) for s in (first, second)}
        verdicts = verify_store(store)
    finally:
        store.close()
    assert [a.stream for a in after] == [first, second]
    assert [a.version for a in after] == [stored[first], stored[second]]
    assert after[0].state == cirulla_end == loaded[first].state
    assert after[1].state == briscola_end == loaded[second].state
    assert {a.head for a in after} == {loaded[first].head, loaded[second].head}
    assert cirulla_end.phase is Phase.ENDED and briscola_end.phase is Phase.ENDED
    assert sorted((v.stream for v in verdicts), key=str) == sorted((first, second), key=str)
    assert all(v.ok and v.problems == () and v.note is None for v in verdicts)


def test_a_batch_continues_a_stream_recorded_action_by_action(backend: Backend) -> None:
    run, final = actions(_demo("briscola", 0x64))
    stream = uuid4()
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        _execute(store, stream, run[:5])
        (after,) = store.execute_batch([(stream, run[5:])])
        (verdict,) = verify_store(store, stream)
    finally:
        store.close()
    assert after.state == final and verdict.ok and verdict.problems == ()


def test_a_refused_action_in_a_batch_stores_nothing_of_any_stream(backend: Backend) -> None:
    good, _ = actions(_demo("cirulla", 0x65))
    bad, _ = actions(_demo("briscola", 0x66))
    assert isinstance(bad[1][0], CommitSeed) and isinstance(bad[2][0], DealSmazzata)
    _, at, by = bad[2]
    bad[2] = (DealSmazzata(Seed(b"\x01" * 16)), at, by)   # not the committed seed
    first, second = uuid4(), uuid4()
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        with pytest.raises(BatchRefused) as refused:
            store.execute_batch([(first, good), (second, bad)])
        nothing = (store.stored(first), store.stored(second), store.heads())
        retried = store.execute_batch([(first, good)])
    finally:
        store.close()
    assert refused.value.stream == second and refused.value.action == 3
    assert isinstance(refused.value.error, RuleViolation)
    assert refused.value.error.rule == "seed-commitment"
    assert f"match {second}, action 3" in str(refused.value)
    assert "nothing of the batch was recorded" in str(refused.value)
    assert nothing == ([], [], [])
    assert retried[0].version > 0


def test_every_stored_record_carries_the_envelope_of_its_action(backend: Backend,
                                                                 tmp_path: Path) -> None:
    run, _ = actions(_demo("cirulla", 0x67))
    kinds = {by.kind for _, _, by in run}
    assert kinds == {"simulator", "house", "seat"}
    stream, batched = uuid4(), uuid4()
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        versions = _execute(store, stream, run)
        records = _records(store, stream)
        facts = store.facts(stream)
    finally:
        store.close()
    (tmp_path / "batch").mkdir()
    for other in make_backend(backend.kind, tmp_path / "batch"):   # a seed is used once a store
        batch_store = MatchStore(url=other.url, catalog=CATALOG)
        try:
            batch_store.execute_batch([(batched, run)])
            batch_records = _records(batch_store, batched)
        finally:
            batch_store.close()
    expected: list[RecordedBy] = []
    for (_, _, by), before, after in zip(run, [0, *versions[:-1]], versions, strict=True):
        expected.extend([by] * (after - before))
    assert len(expected) == len(records) == len(facts)
    assert [f.envelope() for f in facts] == expected
    assert [r["recorded_by"] for r in records] == [
        {"kind": by.kind, "name": by.name, "where": by.where} for by in expected]
    # Seat envelopes name the player at the seat that played.
    plays = [r for r in records if r["type"] == "CardPlayed"]
    assert plays and all(r["recorded_by"] == {"kind": "seat", "name": NAMES[r["data"]["seat"]],
                                              "where": f"seat {r['data']['seat']}"}
                         for r in plays)
    # The batch writes the same records, envelopes included (only the stream differs).
    for one, other in zip(records, batch_records, strict=True):
        assert {**one, "stream": None, "previous_hash": None} == {
            **other, "stream": None, "previous_hash": None}


@pytest.mark.parametrize("envelope, says", [
    ({"kind": "nobody", "name": "x", "where": None}, "nobody"),
    ({"kind": "seat", "name": "   ", "where": "seat 0"}, "no name"),
    ({"kind": "house", "where": None}, ""),
    ({"kind": "house", "name": "tavolo", "where": None, "extra": 1}, ""),
    ("house", ""),
])
def test_an_envelope_tampered_into_a_bad_shape_is_reported(backend: Backend, envelope: object,
                                                           says: str) -> None:
    run, _ = actions(_demo("briscola", 0x68))
    stream = uuid4()
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        _execute(store, stream, run[:6])
        (clean,) = verify_store(store, stream)
        tamperer = Tamperer.open(backend)
        try:
            row_id, _, version, topic, state = tamperer.rows(stream)[2]
            record = json.loads(state)
            record["recorded_by"] = envelope
            tamperer.set_state(row_id, topic, canonical_json(record))
            tamperer.rechain(stream, version + 1)   # a careful forger keeps the chain whole
        finally:
            tamperer.conn.close()
        (verdict,) = verify_store(store, stream)
    finally:
        store.close()
    assert clean.ok and clean.problems == ()
    assert not verdict.ok
    assert [(p.version, p.check) for p in verdict.problems] == [(3, "envelope")]
    assert says in verdict.problems[0].message


def test_the_envelope_check_reads_only_the_envelope() -> None:
    good = {"recorded_by": {"kind": "arbiter", "name": "Rossi", "where": None}}
    assert envelope_problems(4, good) == []
    assert envelope_problems(4, {}) == []   # written before the envelope existed: not recorded
    (problem,) = envelope_problems(4, {"recorded_by": {"kind": "arbitro", "name": "Rossi",
                                               "where": None}})
    assert (problem.version, problem.check) == (4, "envelope")
    assert "arbitro" in problem.message


def test_a_match_with_seed_contributions_is_stored_verified_and_passes_the_outside_auditor(
        backend: Backend) -> None:
    demo = seeded_match("briscola", MatchFormat.parse("3smazzate", "briscola"), None,
                        NAMES[:4], Seed(b"\x69" * 16))
    table = Table(demo.match_seed, BOTS["briscola"], demo.incidents)
    stream = uuid4()
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        loaded = store.execute(stream, demo.setup, START, SIMULATOR)
        at = START
        while True:
            if loaded.state.phase is Phase.DEAL and not loaded.state.contributions:
                for player in (0, 3):
                    at += timedelta(seconds=2)
                    by = seat(NAMES[player], player)
                    loaded = store.execute(stream, ContributeSeed(player, bytes([player]) * 9),
                                           at, by, loaded)
            step = next_command(loaded.state, table, at)
            if step is None:
                break
            command, at, table = step
            loaded = store.execute(stream, command, at, _by(loaded.state, command), loaded)
        (verdict,) = verify_store(store, stream)
        lines = list(export_jsonl(store, stream))
    finally:
        store.close()
    contributed = [json.loads(line) for line in lines if '"type":"SeedContributed"' in line]
    assert len(contributed) == 2 * len(loaded.state.ended) >= 4
    assert all(r["recorded_by"]["kind"] == "seat" for r in contributed)
    assert verdict.ok and verdict.problems == ()
    report = outside.audit_lines(lines)
    assert report.ok and report.check("seeds").status == "OK"
    assert report.check("deals").status == "OK" and report.check("match seed").status == "OK"


def test_a_store_from_an_environment_with_a_bad_url_names_the_variable() -> None:
    with pytest.raises(StoreConfigError, match="VERBALE_DATABASE_URL"):
        MatchStore(env={"VERBALE_DATABASE_URL": "mysql://nowhere/x"}, catalog=CATALOG)


def _stripped(backend: Backend, strip: Callable[[dict[str, Any]], bool]) -> list[Any]:
    """A recorded match with every record `strip` changes re-chained by a careful forger; the
    problems verify then reports."""
    run, _ = actions(_demo("cirulla", 0x69))
    stream = uuid4()
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        _execute(store, stream, run)
        tamperer = Tamperer.open(backend)
        try:
            first = None
            for row_id, _, version, topic, state in tamperer.rows(stream):
                record = json.loads(state)
                if strip(record):
                    tamperer.set_state(row_id, topic, canonical_json(record))
                    first = version if first is None else first
            assert first is not None
            tamperer.rechain(stream, first)
        finally:
            tamperer.conn.close()
        (verdict,) = verify_store(store, stream)
    finally:
        store.close()
    return [(p.version, p.check) for p in verdict.problems if p.check != "replay"]


def test_an_envelope_stripped_from_one_record_of_a_stream_is_reported(backend: Backend) -> None:
    def strip(record: dict[str, Any]) -> bool:
        if record["version"] != 5:
            return False
        del record["recorded_by"]
        return True
    assert _stripped(backend, strip) == [(5, "envelope")]


def test_a_version_2_record_stripped_of_its_new_fields_is_reported(backend: Backend) -> None:
    def strip(record: dict[str, Any]) -> bool:
        if record["type"] != "SmazzataEnded":
            return False
        record["data"]["outcome"] = None
        return True
    found = _stripped(backend, strip)
    assert found and all(check == "fields" for _, check in found)


def test_a_version_3_match_created_stripped_of_its_v2_fields_is_reported(
        backend: Backend) -> None:
    def strip(record: dict[str, Any]) -> bool:
        if record["type"] != "MatchCreated":
            return False
        assert record["class_version"] == 3
        record["data"]["provenance"] = None
        return True
    assert (1, "fields") in _stripped(backend, strip)
