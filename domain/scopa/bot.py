"""A simple Scopa player for simulations: greedy, deterministic, never illegal.

It chooses among the engine's legal commands only: a scopa first, then the capture worth most
(settebello, denari, many cards), else the lowest card laid on the table.
"""

from __future__ import annotations

from domain.cards import SETTEBELLO, Suit
from domain.game import Command, PlayCard
from domain.scopa.engine import legal_commands
from domain.scopa.state import ScopaState
from domain.text import say


def _worth(command: PlayCard, table_size: int) -> tuple[int, int, int, int]:
    cards = (*command.capture, command.card)
    return (int(len(command.capture) == table_size), int(SETTEBELLO in cards),
            sum(1 for c in cards if c.suit is Suit.DENARI), len(cards))


def choose(state: ScopaState) -> Command:
    plays = [c for c in legal_commands(state) if isinstance(c, PlayCard)]
    if not plays:
        raise ValueError(say("no legal play: the smazzata is over or not dealt"))
    captures = [c for c in plays if c.capture]
    if captures:
        return max(captures, key=lambda c: _worth(c, len(state.table)))
    return min(plays, key=lambda c: (c.card.value, c.card))
