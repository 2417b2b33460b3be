"""A simple Cirulla player for simulations: greedy, deterministic, never illegal.

It chooses among `legal_plays` only: a scopa first, then the capture worth most (settebello,
denari, primiera cards, many cards), else the discard that gives least away.
"""

from __future__ import annotations

from domain.cards import SETTEBELLO, Suit
from domain.cirulla.captures import legal_plays
from domain.cirulla.engine import auto_accuso
from domain.cirulla.state import CirullaState, Play
from domain.game import Command, DeclareAccuso, PlayCard
from domain.text import say


def _capture_worth(play: Play, table_size: int) -> tuple[int, int, int, int]:
    card, capture = play
    cards = (*capture, card)
    scopa = 1 if len(capture) == table_size else 0
    settebello = 1 if SETTEBELLO in cards else 0
    denari = sum(1 for c in cards if c.suit is Suit.DENARI)
    return (scopa, settebello, denari, len(cards))


def _discard_cost(play: Play) -> tuple[int, int, int]:
    card = play[0]
    # Keep denari and sevens; throw high figures, which are hard to make 15 with.
    return (1 if card.suit is Suit.DENARI else 0, 1 if card.value == 7 else 0, -card.value)


def choose(state: CirullaState) -> Play:
    plays = legal_plays(state)
    if not plays:
        raise ValueError(say("no legal play: the smazzata is over or not dealt"))
    captures = [p for p in plays if p[1]]
    if captures:
        return max(captures, key=lambda p: _capture_worth(p, len(state.table)))
    return min(plays, key=_discard_cost)


def choose_command(state: CirullaState) -> Command:
    """The simulator's bot (the Game's `bot`): declares its accuso first when it has one (so
    the matta's value is known), then plays `choose`'s play."""
    pending = auto_accuso(state, state.to_move)
    if pending is not None:
        return DeclareAccuso(state.to_move, pending.kind)
    play = choose(state)
    return PlayCard(state.to_move, play[0], play[1])
