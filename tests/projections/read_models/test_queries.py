"""The read models' queries (projections/read_models/queries.py, standings.py) against the
store's own facts, on both databases: the match list's filters, order and pages, the shortest
unique ids, a match's scores beside its SmazzataEnded and MatchEnded, rulings (original and
counted both kept), standings and players' records against the matches they sum."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import pytest
from sqlalchemy import Engine

from domain.events import AccusoDeclared, CardPlayed, SmazzataEnded
from domain.record.commands import RecordRuling
from domain.record.envelope import RecordedBy
from domain.record.events import (
    Abandoned,
    MatchCreated,
    MatchEnded,
    RulingRecorded,
    TimeoutRecorded,
    result_of,
)
from projections.read_models.engine import read_model_engine
from projections.read_models.project import catch_up
from projections.read_models.queries import (
    MatchQuery,
    MatchRow,
    match_page,
    matches_starting,
)
from projections.read_models.scores import match_scores
from projections.read_models.standings import (
    StandingsError,
    parse_tiebreak,
    player_record,
    resolve_tournament,
    standings,
    tournament_tables,
)
from projections.store.app import MatchStore
from tests.projections.conftest import Backend, make_backend
from tests.verbale_cli import run

AT = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)
ARBITER = RecordedBy("arbiter", "Rossi")


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def shared(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Backend]:
    """One store of the demo tournaments per database for the whole module (recording it is
    the slow part). Every test checks the read models against the store as it then is, so the
    one that records rulings leaves nothing the others would misread."""
    for backend in make_backend(request.param, tmp_path_factory.mktemp("queries")):
        code, output = run("simulate", "matches", "--store", "--database", backend.url)
        assert code == 0, output
        yield backend


@contextmanager
def _recorded(backend: Backend) -> Iterator[tuple[MatchStore, Engine, dict[str, list[Any]]]]:
    store = MatchStore(url=backend.url)
    engine = read_model_engine(backend.url)
    try:
        catch_up(store, engine)
        events = {str(s): [f.to_domain() for f in store.facts(s)] for s in store.streams()}
        yield store, engine, events
    finally:
        engine.dispose()
        store.close()


def _matches(events: dict[str, list[Any]]) -> dict[str, list[Any]]:
    return {s: e for s, e in events.items() if isinstance(e[0], MatchCreated)}


def _all(engine: Engine, **filters: Any) -> list[MatchRow]:
    rows: list[MatchRow] = []
    page = 1
    while True:
        got = match_page(engine, MatchQuery(page=page, size=7, **filters))
        rows.extend(got.rows)
        if page >= got.pages:
            return rows
        page += 1


def test_the_list_holds_every_match_newest_first_in_pages(shared: Backend) -> None:
    with _recorded(shared) as (_store, engine, events):
        matches = _matches(events)
        first = match_page(engine, MatchQuery(size=7))
        assert (first.total, first.stored, first.pages) == (len(matches), len(matches),
                                                            -(-len(matches) // 7))
        listed = _all(engine)
        assert [r.stream for r in listed] == sorted(
            (r.stream for r in listed),
            key=lambda s: (next(r.created for r in listed if r.stream == s), s), reverse=True)
        assert sorted(r.stream for r in listed) == sorted(matches)
        for row in listed:
            created = matches[row.stream][0]
            assert (row.game, row.players, row.round, row.table) == (
                created.game, tuple(created.players), created.round, created.table)


@pytest.mark.parametrize("name", ["game", "player", "state", "how", "tournament",
                                  "provenance", "round", "since"])
def test_each_filter_keeps_exactly_the_matches_it_names(shared: Backend, name: str) -> None:
    with _recorded(shared) as (_store, engine, events):
        matches = _matches(events)
        listed = _all(engine)
        sample = listed[len(listed) // 2]
        filters: dict[str, tuple[Any, Callable[[MatchRow], bool]]] = {
            "game": (sample.game, lambda r: r.game == sample.game),
            "player": (sample.players[0].lower()[:3],
                       lambda r: any(sample.players[0].lower()[:3] in p.lower()
                                     for p in r.players)),
            "state": ("ended", lambda r: r.state == "ended"),
            "how": (sample.how, lambda r: r.how == sample.how),
            "tournament": ((sample.tournament_name or "x")[-7:],
                           lambda r: r.tournament_name is not None and
                           (sample.tournament_name or "x")[-7:] in r.tournament_name),
            "provenance": (sample.provenance, lambda r: r.provenance == sample.provenance),
            "round": (sample.round, lambda r: r.round == sample.round),
            "since": (sample.created[:10], lambda r: r.created[:10] >= sample.created[:10]),
        }
        value, keeps = filters[name]
        kept = _all(engine, **{name: value})
        assert kept, name
        assert sorted(r.stream for r in kept) == sorted(r.stream for r in listed if keeps(r))
        if name in ("game", "player", "how", "tournament", "round"):
            assert len(kept) < len(matches)   # the filter does leave some out


def test_a_player_nobody_is_keeps_nothing(shared: Backend) -> None:
    with _recorded(shared) as (_store, engine, _events):
        assert match_page(engine, MatchQuery(player="Nessuno")).total == 0
        with pytest.raises(StandingsError, match="nobody"):
            player_record(engine, "Nessuno")


def test_every_id_shown_is_the_shortest_unique_start(shared: Backend) -> None:
    with _recorded(shared) as (_store, engine, _events):
        for row in _all(engine):
            assert row.stream.replace("-", "").startswith(row.prefix) and len(row.prefix) >= 8
            assert matches_starting(engine, row.prefix, 5) == [row.stream]


def test_scores_are_the_recorded_smazzate_and_settle_the_result(shared: Backend) -> None:
    with _recorded(shared) as (_store, engine, events):
        for stream, facts in _matches(events).items():
            scores = match_scores(engine, stream)
            assert scores is not None
            ended = [e for e in facts if isinstance(e, SmazzataEnded)]
            assert [(s.number, s.points, s.breakdown) for s in scores.smazzate] == [
                (e.number, e.scores, e.breakdown) for e in ended]
            accusi = [e for e in facts if isinstance(e, AccusoDeclared)]
            assert sum(len(s.accusi) for s in scores.smazzate) <= len(accusi)
            result = result_of(facts)
            if result is not None and result.settlement is not None:
                assert scores.totals == result.settlement.points, stream
            forfeits = [e for e in facts if isinstance(e, (TimeoutRecorded, Abandoned))]
            assert scores.penalty == (sum(e.awarded[0] for e in forfeits),
                                      sum(e.awarded[1] for e in forfeits))


def test_an_annulled_smazzata_keeps_its_original_beside_what_counts(shared: Backend) -> None:
    with _recorded(shared) as (store, engine, events):
        stream = next(s for s, facts in sorted(_matches(events).items())
                      if sum(isinstance(e, SmazzataEnded) for e in facts) >= 2
                      and any(isinstance(e, MatchEnded) and e.settlement is not None
                              and e.settlement.how in ("smazzate", "target") for e in facts))
        before = match_scores(engine, stream)
        assert before is not None
        store.execute(UUID(stream), RecordRuling("Rossi", "carte viste", "annul-smazzata",
                                                 smazzata=0), AT, ARBITER)
        store.execute(UUID(stream), RecordRuling("Rossi", "gioco lento", "adjust-score",
                                                 adjustment=(-1, 2)), AT, ARBITER)
        catch_up(store, engine)
        after = match_scores(engine, stream)
        assert after is not None
        first = after.smazzate[0]
        assert first.annulled and first.points == before.smazzate[0].points
        assert first.counted == (0, 0)
        assert after.smazzate[-1].running == tuple(
            a - b for a, b in zip(before.smazzate[-1].running, first.points, strict=True))
        assert [(r.kind, r.adjustment) for r in after.rulings][-2:] == [
            ("annul-smazzata", (0, 0)), ("adjust-score", (-1, 2))]
        facts = [f.to_domain() for f in store.facts(UUID(stream))]
        assert isinstance(facts[-1], MatchEnded) and facts[-1].settlement is not None
        assert after.totals == facts[-1].settlement.points
        assert after.match.ruled and after.match.rulings >= 2
        assert match_page(engine, MatchQuery(how="ruling")).total >= 1
        assert sum(isinstance(e, RulingRecorded) for e in facts) == after.match.rulings


def test_standings_sum_the_tournament_s_matches(shared: Backend) -> None:
    with _recorded(shared) as (_store, engine, _events):
        tournament, name = resolve_tournament(engine, "cirulla")
        table = standings(engine, tournament)
        assert table.name == name and table.vp_table.startswith("verbale standard")
        rows = [t.match for t in tournament_tables(engine, tournament)]
        assert len(rows) == table.matches
        ended = [r for r in rows if r.state == "ended" and r.vp is not None]
        assert sum(line.vp for line in table.lines) == sum(sum(r.vp) for r in ended
                                                          if r.vp is not None)
        assert sum(line.played for line in table.lines) == 2 * table.ended
        keys = [(-line.vp, -line.mp) for line in table.lines]
        assert keys == sorted(keys)
        assert table.lines[0].rank == 1


def test_a_player_s_record_counts_their_matches_and_scope(shared: Backend) -> None:
    with _recorded(shared) as (_store, engine, events):
        matches = _matches(events)
        name = "Anna"
        record = player_record(engine, name)
        theirs = {s: facts for s, facts in matches.items() if name in facts[0].players}
        assert record.matches == len(theirs)
        scope = 0
        for facts in theirs.values():
            seats = [i for i, p in enumerate(facts[0].players) if p == name]
            scope += sum(isinstance(e, CardPlayed) and e.scopa and e.seat in seats
                         for e in facts)
        assert record.scope == scope
        assert record.won + record.drawn + record.lost == record.ended
        assert all(name in r.players for r in record.recent)


def test_tie_break_keys_are_checked() -> None:
    assert parse_tiebreak(None) == ("scontri", "differenza", "vittorie")
    assert parse_tiebreak("vittorie, fatti") == ("vittorie", "fatti")
    with pytest.raises(StandingsError, match="expected distinct keys"):
        parse_tiebreak("vittorie,sorte")
    with pytest.raises(StandingsError, match="expected distinct keys"):
        parse_tiebreak("fatti,fatti")
