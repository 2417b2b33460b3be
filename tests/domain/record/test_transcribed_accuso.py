"""C8 "accuso obbligatorio" in a transcribed Cirulla record (002: "if your cards total 9 or less
than 9, you have to knock on the table at the start on the hand and say you're knocking."): the
first card of a hand of three with a cirulla or a decino played without the accuso declared is
an irregularity, refused unless the record notes it (docs/rules-interpretations.md C8 and T3); a
hand with cards nobody saw cannot show it (a note)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.cards import DECK, UNKNOWN, Card, parse_card
from domain.cirulla.state import CirullaState
from domain.demo.transcribed import ARBITER, setup
from domain.game import PlayCard
from domain.record.catalog import CATALOG
from domain.record.commands import DealLayout, DeclareAccuso, RecordIrregularPlay, TranscribeDeal
from domain.record.decide import decide, decide_checked
from domain.record.events import IrregularityNoted
from domain.record.match import MatchEvent, MatchState, evolve, initial
from domain.record.refusal import RecordRefused
from tests.replacing import replace

START = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
KNOCKING = ("2c", "3s", "4b")   # 2 + 3 + 4 = 9: a cirulla
PLAIN = ("Fd", "Cd", "Rs")
TABLE = ("Rd", "Rb", "Fs", "Cb")


def _cards(codes: tuple[str, ...]) -> tuple[Card, ...]:
    return tuple(parse_card(code) for code in codes)


def dealt_events(accuso: str, shown: tuple[Card, ...]) -> tuple[MatchState, datetime,
                                                                  list[MatchEvent]]:
    """A transcribed deal by seat 0 (seat 1 to move, holding KNOCKING, written as `shown`):
    the state after it, the moment for the next action, and its events."""
    created = setup()
    created = replace(created, ruleset={**dict(created.ruleset), "accuso": accuso})
    state, events = initial(CATALOG), []
    used = {*_cards(KNOCKING), *_cards(PLAIN), *_cards(TABLE)}
    stock = tuple(card for card in DECK if card not in used)
    layout = DealLayout(hands=(_cards(PLAIN), shown), table=_cards(TABLE), stock=stock)
    at = START + timedelta(seconds=1)
    for command, when in ((created, START), (TranscribeDeal(layout, dealer=0), at)):
        for event in decide(state, command, when):
            state = evolve(state, event, when)
            events.append(event)
    game = state.game
    assert isinstance(game, CirullaState) and game.to_move == 1
    return state, at + timedelta(seconds=1), events


def _dealt(accuso: str, shown: tuple[Card, ...]) -> tuple[MatchState, datetime]:
    state, at, _ = dealt_events(accuso, shown)
    return state, at


FIRST = PlayCard(1, parse_card("4b"), ())


def test_a_hand_s_first_card_without_its_accuso_is_refused_unless_noted() -> None:
    state, at = _dealt("obbligatorio", _cards(KNOCKING))
    with pytest.raises(RecordRefused, match=r"declaring the cirulla .*\[C8 accuso obbligatorio\]"):
        decide(state, FIRST, at)
    events = decide(state, RecordIrregularPlay(FIRST, noted_by=ARBITER), at)
    (noted,) = [e for e in events if isinstance(e, IrregularityNoted)]
    assert (noted.rule, noted.seat, noted.verified) == ("C8 accuso obbligatorio", 1, True)
    assert noted.message == "seat 2 played without declaring the cirulla its hand made (2c 3s 4b)"
    assert "you have to knock" in noted.source


def test_a_declared_accuso_lets_the_hand_play() -> None:
    state, at = _dealt("obbligatorio", _cards(KNOCKING))
    for event in decide(state, DeclareAccuso(1, "cirulla"), at):
        state = evolve(state, event, at)
    assert decide(state, FIRST, at)


@pytest.mark.parametrize("accuso", ["facoltativo", "automatico"])
def test_other_readings_ask_nothing_of_the_hand(accuso: str) -> None:
    state, at = _dealt(accuso, _cards(KNOCKING))
    if accuso == "facoltativo":   # an undeclared accuso is lost, nothing more
        assert decide(state, FIRST, at)
    else:                         # the accuso was made for the seat already
        assert state.game.declared[1]


def test_a_hand_nobody_saw_cannot_show_whether_it_had_to_knock() -> None:
    state, at = _dealt("obbligatorio", (UNKNOWN,) * 3)
    checked = decide_checked(state, FIRST, at)
    assert not any(isinstance(e, IrregularityNoted) for e in checked.events)
    assert any("C8 accuso obbligatorio: seat 2's hand holds unseen cards" in note
               for note in checked.notes)

