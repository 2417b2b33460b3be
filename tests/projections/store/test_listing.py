"""The listing of stored matches (projections/store/listing.py) and the id prefixes
(MatchStore.streams_starting), on both databases.

The listing reads each stream's first event, the last few events and a count by topic; every
field it gives is checked against the full replay of the match (`MatchStore.load`) and its facts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

import pytest
from click.testing import CliRunner

from domain.demo.matches import demo_set, reseeded
from domain.demo.transcribed import transcribe
from domain.record.catalog import CATALOG
from domain.record.commands import RecordRuling
from domain.record.envelope import RecordedBy, importer
from domain.record.events import IrregularityNoted, RulingRecorded
from domain.shuffle import Seed
from projections.store.app import MatchStore
from projections.store.listing import Filters, MatchSummary, list_matches, shortest_prefixes
from replay_web.cli import _register, cli
from tests.projections.conftest import Backend, make_backend

SEED = "5eed0000000000000000000000000001"
AT = datetime(2026, 11, 23, 9, 30, tzinfo=UTC)
BY = RecordedBy("simulator", "tests")
EVERY = Filters()
T = TypeVar("T")
RULING = RecordRuling(arbiter="Rossi", reason="punti non contati", kind="adjust-score",
                      adjustment=(0, 30))


@pytest.fixture(params=["sqlite", "postgres"])
def recorded(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """Six demo matches (a timeout, an abandon; an arbiter's ruling after the end of the first,
    which turns its result), a Briscola match, a transcribed match with two noted
    irregularities, and a match just created (in progress)."""
    for backend in make_backend(request.param, tmp_path):
        _register()
        runner = CliRunner()
        for args in (["simulate", "matches", "--count", "6"],
                     ["simulate", "briscola", "--seed", SEED, "--players", "4"]):
            result = runner.invoke(cli, [*args, "--store", "--database", backend.url])
            assert result.exit_code == 0, result.output
        store = MatchStore(url=backend.url)
        try:
            first_seed = demo_set(Seed.from_hex(SEED), 1, tournaments=True)[0].match_seed
            first = uuid5(NAMESPACE_URL, f"verbale:demo:{first_seed.hex}")
            store.execute(first, RULING, AT, RecordedBy("arbiter", "Rossi"))
            transcribed = uuid4()
            for line, (command, at) in enumerate(transcribe().commands, start=1):
                store.execute(transcribed, command, at, importer("tests 1", "t.txt", line))
            # Demo match 0 again from another seed (a seed is used once in a store).
            fresh = reseeded(demo_set(Seed.from_hex(SEED), 1)[0], Seed(b"\x5e" * 16))
            store.execute(uuid4(), fresh.setup, AT, BY)
        finally:
            store.close()
        yield backend


def _listed(backend: Backend, filters: Filters = EVERY) -> list[MatchSummary]:
    store = MatchStore(url=backend.url)
    try:
        return list_matches(store, filters).matches
    finally:
        store.close()


def test_every_listed_field_agrees_with_the_replayed_match(recorded: Backend) -> None:
    store = MatchStore(url=recorded.url)
    try:
        listing = list_matches(store)
        steps: list[str] = []

        def each(items: Iterable[T], total: int | None, step: str) -> Iterable[T]:
            steps.append(step)
            return items

        assert list_matches(store, each=each, chunk=2) == listing
        assert steps == ["matches", "results", "counts"]
        every = store.streams()
        replayed = {m.stream: (store.load(m.stream), store.facts(m.stream))
                    for m in listing.matches}
    finally:
        store.close()
    assert listing.total == len(listing.matches) == 9 and not listing.unreadable
    assert len(every) == 9 + 2   # and the demo's two tournaments, which are not listed
    for match in listing.matches:
        loaded, facts = replayed[match.stream]
        # the prefix names this stream and no other
        digits = match.prefix.replace("-", "")
        assert len(digits) >= 8 and match.stream.hex.startswith(digits)
        assert [s for s in every if s.hex.startswith(digits)] == [match.stream]
        state, created = loaded.state, loaded.state.created
        assert match.events == loaded.version == len(facts)
        assert (match.game, match.players, match.sides) == (
            created.game, tuple(created.players), tuple(created.sides))
        assert match.provenance == created.provenance.kind
        assert match.tournament == created.tournament and match.round == created.round
        assert match.created == facts[0].timestamp
        assert match.rulings == sum(isinstance(f.to_domain(), RulingRecorded) for f in facts)
        assert match.irregularities == len(state.irregularities) == sum(
            isinstance(f.to_domain(), IrregularityNoted) for f in facts)
        if state.result is None:
            assert match.ending is None and match.state == "in-progress"
            assert match.winners is None
            continue
        assert match.ending is not None and match.state == "ended"
        assert match.ending.scores == state.result.scores
        assert match.ending.winner == state.result.winner
        assert match.ending.how == state.result.settlement.how
        winners = match.winners or ()
        assert all(created.sides[created.players.index(name)] == state.result.winner
                   for name in winners)
    kinds = {(m.provenance, m.state) for m in listing.matches}
    assert kinds == {("simulated", "ended"), ("transcribed", "ended"),
                     ("simulated", "in-progress")}
    assert sorted(m.rulings for m in listing.matches) == [0] * 8 + [1]
    ruled = next(m for m in listing.matches if m.rulings)
    assert ruled.ending is not None and ruled.ending.how == "target"   # kept by the ruling
    assert {m.irregularities for m in listing.matches} == {0, 2}
    assert {m.ending.how for m in listing.matches if m.ending} >= {"timeout", "abandon"}
    assert listing.matches[0].created == max(m.created for m in listing.matches)


def test_the_filters(recorded: Backend) -> None:
    every = _listed(recorded)
    assert {m.game for m in _listed(recorded, Filters(game="briscola"))} == {"briscola"}
    assert len(_listed(recorded, Filters(game="briscola"))) == 1
    assert len(_listed(recorded, Filters(game="cirulla"))) == 8
    transcribed = _listed(recorded, Filters(provenance="transcribed"))
    assert [m.provenance for m in transcribed] == ["transcribed"]
    assert _listed(recorded, Filters(provenance="live")) == []
    going = _listed(recorded, Filters(state="in-progress"))
    assert [m.state for m in going] == ["in-progress"]
    assert len(_listed(recorded, Filters(state="ended"))) == 8
    assert len(_listed(recorded, Filters(state="ended", limit=3))) == 3
    assert _listed(recorded, Filters(limit=4)) == every[:4]
    part = every[0].players[1][:3]
    with_part = _listed(recorded, Filters(player=part.upper()))
    assert every[0] in with_part
    assert all(any(part.casefold() in p.casefold() for p in m.players) for m in with_part)
    assert _listed(recorded, Filters(player="nobody-plays-here")) == []
    in_tournaments = [m for m in every if m.tournament is not None]
    assert len(in_tournaments) == 6
    assert {m.tournament_name for m in in_tournaments} == {"Torneo dimostrativo di cirulla"}
    assert _listed(recorded, Filters(tournament="dimostrativo di CIRULLA")) == in_tournaments
    tournament = in_tournaments[0].tournament
    assert tournament is not None
    assert _listed(recorded, Filters(tournament=tournament[:6])) == in_tournaments
    assert _listed(recorded, Filters(tournament="briscola")) == []


def test_an_empty_store_lists_nothing(backend: Backend) -> None:
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        listing = list_matches(store)
    finally:
        store.close()
    assert listing.matches == [] and listing.total == 0


def test_streams_starting_finds_streams_by_the_start_of_their_id(backend: Backend) -> None:
    ids = [UUID("abcd0000-0000-4000-8000-000000000001"),
           UUID("abcd0000-0000-4000-8000-000000000002"),
           UUID("abce0000-0000-4000-8000-000000000000"),
           UUID("ffffffff-ffff-4fff-bfff-ffffffffffff")]
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        for stream in ids:
            store.create_tournament("t", "cirulla", AT, BY, stream)
        assert store.streams_starting("abcd") == ids[:2]
        assert store.streams_starting("ABCD-0000-0000-4000-8000-00000000000") == ids[:2]
        assert store.streams_starting("abcd0000000040008000000000000002") == [ids[1]]
        assert store.streams_starting("abc") == ids[:3]
        assert store.streams_starting("abc", limit=2) == ids[:2]
        assert store.streams_starting("abcf") == []
        assert store.streams_starting("ffff") == [ids[3]]
        assert store.streams_starting("") == sorted(ids)
        with pytest.raises(ValueError, match="hex digits"):
            store.streams_starting("abcz")
    finally:
        store.close()


def test_shortest_prefixes_are_unique_and_at_least_eight_digits() -> None:
    ids = [UUID("abcd0000-0000-4000-8000-000000000001"),
           UUID("abcd0000-0000-4000-8000-000000000002"),
           UUID("abcd0001-0000-4000-8000-000000000000"),
           UUID("abcd0000-1000-4000-8000-000000000000"),
           UUID("12345678-0000-4000-8000-000000000000")]
    prefixes = shortest_prefixes(ids)
    assert prefixes == {
        ids[0]: "abcd0000-0000-4000-8000-000000000001",
        ids[1]: "abcd0000-0000-4000-8000-000000000002",
        ids[2]: "abcd0001",
        ids[3]: "abcd0000-1",
        ids[4]: "12345678"}
    assert shortest_prefixes([]) == {}


def test_a_stream_whose_first_event_cannot_be_read_is_listed_apart(backend: Backend) -> None:
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        store.execute(uuid4(), demo_set(Seed.from_hex(SEED), 1)[0].setup, AT, BY)
    finally:
        store.close()
    broken = uuid4()
    key = broken.hex if backend.kind == "sqlite" else broken
    mark = backend.placeholder()
    with backend.connect() as conn:   # behind the store's back: a row no codec reads
        conn.execute(f"INSERT INTO {backend.events_table} (originator_id, originator_version, "
                     f"topic, state) VALUES ({mark}, 1, {mark}, {mark})",
                     (key, "projections.store.facts:MatchCreated", b"{not json"))
        conn.execute(f"INSERT INTO {backend.heads_table} VALUES ({mark}, 1, {mark})",
                     (key, "0" * 64))
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        listing = list_matches(store)
    finally:
        store.close()
    assert listing.unreadable == [broken]
    assert len(listing.matches) == listing.total == 1
    assert listing.matches[0].state == "in-progress" and listing.matches[0].events == 1
