"""004, an even number of smazzate (option `smazzate_pari`), through the record: the commands of
a bot table in (CreateMatch, seeds, deals, plays), the events out (MatchCreated, SmazzataEnded,
MatchEnded), for 2 and 4 players. docs/rules-interpretations.md, "Briscola: an even number of
smazzate (the 2 smazzate VP column)".

The match seeds below were picked (by playing the bots) for the finish each test needs; the
assertions check that finish, so a change of the bots shows up as a failing test, not a pass.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.demo.matches import BOTS, NAMES, seeded_match
from domain.events import SmazzataEnded
from domain.match_format import (
    BRISCOLA_SOGLIA,
    MatchFormat,
    MatchKind,
    SmazzataResult,
    briscola_smazzata_winner,
    match_status,
)
from domain.record.catalog import CATALOG, format_options, parse_format
from domain.record.commands import CreateMatch
from domain.record.decide import RecordRefused, decide
from domain.record.events import MatchCreated, MatchEnded
from domain.record.match import MatchEvent, MatchState, initial
from domain.record.simulate import Incidents, Table, play_locally
from domain.shuffle import Seed
from domain.vp_table import PRINTED, TABLES, column_rows, match_vp
from tests.domain.match_strategies import played_matches

START = datetime(2026, 11, 25, 1, 0, tzinfo=UTC)
LEVEL_1_1 = {2: 0, 4: 0}  # seeds whose two smazzate are won one each
ONE_60_60 = {2: 4, 4: 46}  # seeds with a 60-60 smazzata among the two


def _seed(n: int, players: int) -> Seed:
    return Seed(bytes([n, players]) * 8)


def _record(fmt: MatchFormat, players: int, n: int) -> tuple[list[MatchEvent], MatchState]:
    demo = seeded_match("briscola", fmt, None, NAMES[:players], _seed(n, players))
    table = Table(demo.match_seed, BOTS["briscola"], Incidents())
    recorded: list[MatchEvent] = []
    final = initial(CATALOG)
    for events, _, state in play_locally(CATALOG, demo.setup, table, START):
        recorded.extend(events)
        final = state
    return recorded, final


def _ended(recorded: list[MatchEvent]) -> tuple[list[SmazzataEnded], MatchEnded]:
    smazzate = [e for e in recorded if isinstance(e, SmazzataEnded)]
    (result,) = [e for e in recorded if isinstance(e, MatchEnded)]
    return smazzate, result


def _two(ko: bool = False, vp: bool = False) -> MatchFormat:
    return MatchFormat.parse("2smazzate", "briscola", smazzate_pari=True, ko=ko, vp=vp)


@pytest.mark.parametrize("players", [2, 4])
def test_pari_two_smazzate_won_one_each_is_a_parita_without_ko(players: int) -> None:
    """004: "Vince la partita chi si aggiudica la maggioranza delle smazzate" — 1-1 is no
    majority: without KO the match is a draw (MatchEnded winner None), VP 10-10, MP 0."""
    fmt = _two()
    recorded, state = _record(fmt, players, LEVEL_1_1[players])
    created = recorded[0]
    assert isinstance(created, MatchCreated)
    assert created.match_format["smazzate_pari"] == "true"
    assert created.match_format["length"] == "2"
    smazzate, result = _ended(recorded)
    winners = [briscola_smazzata_winner(r) for r in state.counted()]
    assert len(smazzate) == 2 and sorted(w for w in winners if w is not None) == [0, 1]
    assert (result.winner, result.reason, result.smazzate, result.scores) == (
        None, "parità", 2, (1, 1))
    assert match_vp(fmt, state.counted()).vp == (10, 10)


@pytest.mark.parametrize("players", [2, 4])
def test_pari_two_smazzate_won_one_each_goes_to_the_spareggi_with_ko(players: int) -> None:
    """004: "Nei tornei a eliminazione diretta (KO), se la partita finisce in parità, verrà
    giocata un'altra smazzata ("1° spareggio") e si aggiudicherà l'incontro chi farà più
    punti." — the 1-1 of two smazzate is that parità."""
    recorded, state = _record(_two(ko=True), players, LEVEL_1_1[players])
    smazzate, result = _ended(recorded)
    assert len(smazzate) == 3
    spareggio = state.counted()[2].points
    assert spareggio[0] != spareggio[1]
    assert result.winner == int(spareggio[1] > spareggio[0])
    assert (result.reason, result.smazzate, result.scores) == ("spareggio 1", 3, (1, 1))


@pytest.mark.parametrize("ko", [False, True])
@pytest.mark.parametrize("players", [2, 4])
def test_pari_a_60_60_smazzata_is_won_by_nobody(players: int, ko: bool) -> None:
    """004: "Se entrambi i giocatori totalizzano 60 punti la smazzata finisce in parità." — in a
    2-smazzate match the other smazzata then makes a majority of 1-0."""
    fmt = _two(ko=ko)
    recorded, state = _record(fmt, players, ONE_60_60[players])
    smazzate, result = _ended(recorded)
    assert len(smazzate) == 2
    assert (60, 60) in [s.scores for s in smazzate]
    other = next(r for r in state.counted() if r.points != (60, 60))
    assert max(other.points) >= BRISCOLA_SOGLIA
    assert result.winner == briscola_smazzata_winner(other)
    assert (result.reason, result.smazzate) == ("smazzate", 2)
    assert sorted(result.scores) == [0, 1]


@pytest.mark.parametrize("players", [2, 4])
def test_an_even_number_without_the_option_is_refused_at_creation(players: int) -> None:
    """004: "Per questo motivo il numero di smazzate deve sempre essere dispari." — standard
    reading: 2 smazzate only with the option smazzate_pari."""
    options = {**format_options(_two()), "smazzate_pari": "false"}
    command = CreateMatch(game="briscola", ruleset={"vinco_subito": "false"},
                          players=NAMES[:players], match_format=options)
    with pytest.raises(RecordRefused, match="smazzate_pari") as refused:
        decide(initial(CATALOG), command, START)
    assert refused.value.rule == "match-setup"
    odd_with_option = {**format_options(MatchFormat.parse("3smazzate", "briscola")),
                       "smazzate_pari": "true"}
    with pytest.raises(RecordRefused, match="smazzate_pari"):
        decide(initial(CATALOG), CreateMatch(game="briscola", ruleset={"vinco_subito": "false"},
                                              players=NAMES[:players],
                                              match_format=odd_with_option), START)


_COLUMNS = (("1smazzata", False, 0), ("punti", False, 0), ("2smazzate", True, 1),
            ("3smazzate", False, 2))


@pytest.mark.parametrize("players", [2, 4])
def test_every_printed_column_of_004_is_reachable_through_the_record(players: int) -> None:
    """004, "Tabella dei Victory Points": "1 smazzata da MP", "2 smazzate da MP", "3 smazzate
    da MP" — each column is the one of a format a match scored by VP can be created with, and
    the VP of the record's result are read from it."""
    reached = set()
    for text, pari, column in _COLUMNS:
        fmt = MatchFormat.parse(text, "briscola", smazzate_pari=pari, vp=True)
        assert column_rows(fmt) is TABLES["briscola"][column]
        for n in range(20):
            recorded, state = _record(fmt, players, n)
            _, result = _ended(recorded)
            if result.winner is not None:
                break
        assert result.winner is not None
        created = recorded[0]
        assert isinstance(created, MatchCreated) and created.match_format["vp"] == "true"
        assert parse_format("briscola", created.match_format) == fmt
        settled = match_vp(fmt, state.counted())
        mp = settled.mp[result.winner]
        assert result.settlement is not None and result.settlement.mp == mp
        row = [r for r in TABLES["briscola"][column] if r.mp_from <= mp][-1]
        assert settled.vp[result.winner] == row.winner_vp
        assert sum(settled.vp) == 20
        reached.add(column)
    assert reached == set(range(len(PRINTED["briscola"])))


_EVEN = st.builds(MatchFormat, st.just("briscola"), st.just(MatchKind.SMAZZATE),
                  st.sampled_from((2, 4, 6)), ko=st.booleans(), smazzate_pari=st.just(True))


@given(played_matches(_EVEN))
def test_pari_a_level_count_after_the_n_smazzate_is_the_parita(
        match: tuple[MatchFormat, list[SmazzataResult]]) -> None:
    """004: "Vince la partita chi si aggiudica la maggioranza delle smazzate"; with an even
    number the counts can be level at the end: a draw without KO, the spareggi with KO; a
    majority stops the match only when certain."""
    fmt, results = match
    regular = results[:fmt.length]
    status = match_status(fmt, regular)
    if len(regular) < fmt.length and not status.over:
        return
    lead = abs(status.totals[0] - status.totals[1])
    if status.over and status.winner is not None:
        assert lead > fmt.length - len(regular)
        return
    assert len(regular) == fmt.length and lead == 0
    if fmt.ko:
        assert (status.over, status.next_tiebreak) == (False, 1)
    else:
        assert (status.over, status.drawn, status.reason) == (True, True, "parità")
