"""Which stored deals a fairness report reads (projections/fairness/selection.py), on SQLite and
PostgreSQL: every filter checked against the deals read off the whole streams independently
(every event decoded, no listing), and the matches in progress left out."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from uuid import uuid4

import pytest

from domain.demo.matches import BOTS, demo_set
from domain.demo.transcribed import transcribe
from domain.events import SmazzataDealt
from domain.record.clock import parse_stamp
from domain.record.envelope import RecordedBy, importer
from domain.record.events import MatchCreated, MatchEnded, TournamentCreated
from domain.record.simulate import Table
from domain.shuffle import Seed
from projections.fairness.selection import (
    Criteria,
    Selection,
    SelectionError,
    ruleset_option,
    select_deals,
)
from projections.store.app import MatchStore
from tests.projections.conftest import make_backend
from tests.projections.store.recording import START, play_into
from tests.verbale_cli import run

SEED = "5eed0000000000000000000000000001"
BY = RecordedBy("simulator", "tests")
Key = tuple[str, int, int]


@dataclass(frozen=True)
class Dealt:
    """A SmazzataDealt as the whole stream says: its key, dealer, day, and its match's facts."""

    key: Key
    dealer: int
    day: date
    created: MatchCreated
    ended: bool
    tournament_name: str | None


@dataclass(frozen=True)
class Stored:
    url: str
    deals: list[Dealt]
    in_progress: str


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def stored(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Stored]:
    """Six demo Cirulla matches (a tournament), a 4-seat Briscola match, a transcribed match,
    and a demo match left in progress after its first deal."""
    tmp_path: Path = tmp_path_factory.mktemp(f"selection-{request.param}")
    for backend in make_backend(request.param, tmp_path):
        for args in (["simulate", "matches", "--count", "6"],
                     ["simulate", "briscola", "--seed", SEED, "--players", "4"]):
            code, out = run(*args, "--store", "--database", backend.url)
            assert code == 0, out
        store = MatchStore(url=backend.url)
        try:
            transcribed = uuid4()
            for line, (command, at) in enumerate(transcribe().commands, start=1):
                store.execute(transcribed, command, at, importer("tests 1", "t.txt", line))
            going = _in_progress(store)
            yield Stored(backend.url, _read_everything(store), str(going))
        finally:
            store.close()


def _in_progress(store: MatchStore) -> object:
    demo = demo_set(Seed.from_hex("5eed" + "0" * 27 + "2"), 1)[0]
    stream = store.create_match(demo.setup, START, BY)
    table = Table(demo.match_seed, BOTS[demo.setup.game], demo.incidents)
    play_into(store, stream, table, stop_after=12)
    return stream


def _read_everything(store: MatchStore) -> list[Dealt]:
    names = {}
    streams = {}
    for stream in store.streams():
        facts = store.facts(stream)
        first = facts[0].to_domain()
        if isinstance(first, TournamentCreated):
            names[str(stream)] = first.name
        else:
            streams[str(stream)] = facts
    out = []
    for stream, facts in streams.items():
        events = [(f.to_domain(), parse_stamp(f.timestamp)) for f in facts]
        created = events[0][0]
        assert isinstance(created, MatchCreated)
        ended = any(isinstance(e, MatchEnded) for e, _ in events)
        out += [Dealt((stream, e.number, e.attempt), e.dealer, at.date(), created, ended,
                      names.get(created.tournament or ""))
                for e, at in events if isinstance(e, SmazzataDealt)]
    return out


def _select(stored: Stored, **criteria: object) -> Selection:
    store = MatchStore(url=stored.url, read_only=True)
    try:
        return select_deals(store, Criteria(**criteria))  # type: ignore[arg-type]
    finally:
        store.close()


def _keys(selection: Selection) -> set[Key]:
    return {(r.match, r.smazzata, r.attempt) for r in selection.records}


def _expected(stored: Stored, keep: object = lambda d: True) -> set[Key]:
    return {d.key for d in stored.deals if d.ended and keep(d)}  # type: ignore[operator]


def test_every_deal_of_the_ended_matches_and_none_of_the_match_in_progress(
        stored: Stored) -> None:
    selection = _select(stored)
    assert _keys(selection) == _expected(stored)
    assert selection.in_progress == 1
    assert selection.matches == len({d.key[0] for d in stored.deals if d.ended})
    going = [d for d in stored.deals if d.key[0] == stored.in_progress]
    assert going, "the match in progress has dealt: its deal is what must not show"
    assert not {d.key for d in going} & _keys(selection)
    dealers = {d.key: d.dealer for d in stored.deals}
    assert all(dealers[(r.match, r.smazzata, r.attempt)] == r.dealer for r in selection.records)


@pytest.mark.parametrize("game", ["cirulla", "briscola"])
def test_by_game(stored: Stored, game: str) -> None:
    assert _keys(_select(stored, game=game)) == _expected(stored, lambda d: d.created.game == game)


@pytest.mark.parametrize("provenance", ["simulated", "transcribed", "live"])
def test_by_provenance_transcribed_deals_kept_and_marked(stored: Stored, provenance: str) -> None:
    selection = _select(stored, provenance=provenance)
    assert _keys(selection) == _expected(
        stored, lambda d: d.created.provenance is not None
        and d.created.provenance.kind == provenance)
    assert all(r.transcribed == (provenance == "transcribed") for r in selection.records)
    if provenance != "live":
        assert selection.records


def test_by_tournament_name_or_id(stored: Stored) -> None:
    named = [d for d in stored.deals if d.tournament_name]
    assert named
    name = named[0].tournament_name
    assert name is not None
    word = name.split()[-1].lower()
    expected = _expected(stored, lambda d: d.tournament_name is not None
                         and word in d.tournament_name.lower())
    assert _keys(_select(stored, tournament=word)) == expected
    ident = named[0].created.tournament
    assert ident is not None
    assert _keys(_select(stored, tournament=ident[:8])) == _expected(
        stored, lambda d: d.created.tournament == ident)


def test_by_dealer_seat_and_name(stored: Stored) -> None:
    assert _keys(_select(stored, dealer="2")) == _expected(stored, lambda d: d.dealer == 1)
    name = next(d.created.players[d.dealer] for d in stored.deals if d.ended)
    part = name[1:4].upper()
    expected = _expected(stored, lambda d: part.lower() in d.created.players[d.dealer].lower())
    assert expected and _keys(_select(stored, dealer=part)) == expected
    with pytest.raises(SelectionError):
        _select(stored, dealer="  ")


def test_by_ruleset_option(stored: Stored) -> None:
    readings = {d.created.ruleset.get("redeal") for d in stored.deals
                if d.created.game == "cirulla"}
    assert len(readings) > 1, "the demo set has more than one C1 reading to tell apart"
    for reading in readings:
        assert reading is not None
        chosen = _select(stored, ruleset=(ruleset_option(f"redeal={reading}"),))
        assert _keys(chosen) == _expected(
            stored, lambda d, r=reading: d.created.ruleset.get("redeal") == r)
        assert chosen.records
    assert ruleset_option("deal-order = alternata") == ("deal_order", "alternata")
    for bad in ("redeal", "=x", "redeal="):
        with pytest.raises(SelectionError):
            ruleset_option(bad)


def test_by_days(stored: Stored) -> None:
    days = sorted({d.day for d in stored.deals if d.ended})
    first, last = days[0], days[-1]
    assert _keys(_select(stored, since=last)) == _expected(stored, lambda d: d.day >= last)
    assert _keys(_select(stored, until=first)) == _expected(stored, lambda d: d.day <= first)
    before = date.fromordinal(first.toordinal() - 1)
    assert _select(stored, until=before).records == ()
    assert _keys(_select(stored, since=first, until=last)) == _expected(stored)
    assert all(isinstance(r.dealt_at, datetime) for r in _select(stored, since=last).records)
