"""What the tournament refuses at the door, and what it records as written."""

from __future__ import annotations

import pytest

from domain.tarocchi.commands import (
    CreateTarocchiTournament,
    DrawSeating,
    RevealSorteggio,
    SeatTurn,
    WritePlayerLine,
    WriteTableLine,
)
from domain.tarocchi.decide import TarocchiRefused, decide
from domain.tarocchi.events import TarocchiTournamentCreated
from domain.tarocchi.state import TarocchiState
from tests.domain.tarocchi.builders import (
    SEATING_SEED,
    SORTEGGIO_SEED,
    drawn,
    entrants,
    lines,
    placed,
    run,
)
from tests.replacing import replace

STATE = drawn(4, teams=1)
TABLE = STATE.turns[0].tables[0]
PLAYERS, TABLE_LINE = lines(STATE, 1, TABLE, 1, placed(None, TABLE, 1))


def creation(**changes: object) -> CreateTarocchiTournament:
    made = TarocchiTournamentCreated("T", entrants(8), "precostituito", "fasce",
                                     SEATING_SEED.commitment(), SORTEGGIO_SEED.commitment())
    return CreateTarocchiTournament(replace(made, **changes))  # type: ignore[arg-type]


@pytest.mark.parametrize(("changes", "message"), [
    ({"name": " "}, "needs a name"),
    ({"entrants": entrants(7)}, "multiple of 4"),
    ({"recomposition": "a caso"}, "recomposition 'a caso'"),
    ({"final": "classifica"}, "final turn 'classifica'"),
    ({"seating_commitment": "ab"}, "64 lowercase hex"),
])
def test_creation_refusals(changes: dict[str, object], message: str) -> None:
    with pytest.raises(TarocchiRefused, match=message):
        decide(TarocchiState(), creation(**changes))


def test_order_of_the_facts() -> None:
    created = run(TarocchiState(), creation())
    with pytest.raises(TarocchiRefused, match="exists already"):
        decide(created, creation())
    with pytest.raises(TarocchiRefused, match="not been drawn"):
        decide(created, SeatTurn(2))
    with pytest.raises(TarocchiRefused, match="not been created"):
        decide(TarocchiState(), DrawSeating(SEATING_SEED))
    with pytest.raises(TarocchiRefused, match="drawn already"):
        decide(drawn(8), DrawSeating(SEATING_SEED))
    revealed = run(created, RevealSorteggio(SORTEGGIO_SEED))
    with pytest.raises(TarocchiRefused, match="revealed already"):
        decide(revealed, RevealSorteggio(SORTEGGIO_SEED))


def test_a_line_is_recorded_as_written_but_only_once() -> None:
    wrong = replace(PLAYERS[0], diff=99, parz=-7)
    state = run(STATE, WritePlayerLine(wrong))
    assert state.player_lines[(wrong.player, 1, 1)] == wrong
    with pytest.raises(TarocchiRefused, match="written already"):
        decide(state, WritePlayerLine(PLAYERS[0]))
    state = run(state, WriteTableLine(TABLE_LINE))
    with pytest.raises(TarocchiRefused, match="written already"):
        decide(state, WriteTableLine(TABLE_LINE))


@pytest.mark.parametrize(("changes", "message"), [
    ({"player": 9}, "no such player in turn 1"),
    ({"turn": 2}, "turn 2 is not seated"),
    ({"smazzata": 5}, "smazzate 1 to 4"),
    ({"plus": (("XX", 1),)}, "kind of game 'XX'"),
    ({"role": "spettatore"}, "role 'spettatore'"),
    ({"validator": 40}, "validator 40: no such player"),
    ({"member": "Nessuno"}, "not a member"),
])
def test_what_cannot_be_a_line(changes: dict[str, object], message: str) -> None:
    with pytest.raises(TarocchiRefused, match=message):
        decide(STATE, WritePlayerLine(replace(PLAYERS[0], **changes)))  # type: ignore[arg-type]


def test_a_team_names_the_member_who_sat() -> None:
    """Art. 2: the team's members divide "tra loro a piacimento il numero di turni o smazzate
    cui partecipare": each line may name the member who sat."""
    team = next(n for n in TABLE.players if STATE.entrant(n).is_team)
    line = next(p for p in PLAYERS if p.player == team)
    member = STATE.entrant(team).members[1]
    state = run(STATE, WritePlayerLine(replace(line, member=member)))
    assert state.player_lines[(team, 1, 1)].member == member


@pytest.mark.parametrize(("changes", "message"), [
    ({"table": "B"}, "turn 1 has no table B"),
    ({"smazzata": 0}, "smazzate 1 to 4"),
    ({"caller": 77}, "player 77: no such player"),
])
def test_what_cannot_be_a_table_line(changes: dict[str, object], message: str) -> None:
    with pytest.raises(TarocchiRefused, match=message):
        decide(STATE, WriteTableLine(replace(TABLE_LINE, **changes)))  # type: ignore[arg-type]
