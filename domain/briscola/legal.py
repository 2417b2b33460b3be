"""Every command the seat to move may give in a Briscola position: each card of its hand, "non vi
è mai l'obbligo a giocare una carta" (004). Nobody to move (before the deal, after the end): none.
In a transcribed record, a card nobody saw (UNKNOWN) is no command: only the known cards are.
"""

from __future__ import annotations

from domain.briscola.state import BriscolaState
from domain.cards import UNKNOWN
from domain.game import Command, PlayCard


def legal_commands(state: BriscolaState) -> tuple[Command, ...]:
    seat = state.turn
    if seat is None:
        return ()
    return tuple(PlayCard(seat, card) for card in state.hands[seat] if card is not UNKNOWN)
