"""Every command the seat to move may give in a Cirulla position, as `decide` would accept it.

The plays are captures.legal_plays (each capture in deck order, as CardPlayed records it). The
accusi follow the ruleset's `accuso` option (C8): AUTOMATICO declares them itself, so none is
offered; FACOLTATIVO offers them beside the plays; OBBLIGATORIO offers only them while one is
due, since `decide` refuses a play before it ("must declare the ... before playing").
In a transcribed record a hand may hold cards nobody saw (UNKNOWN): the commands are those of its
known cards, and no accuso is offered for a hand not wholly seen.
"""

from __future__ import annotations

from domain.cards import UNKNOWN
from domain.cirulla.accusi import player_accusi
from domain.cirulla.captures import legal_plays
from domain.cirulla.ruleset import Accuso
from domain.cirulla.state import CirullaState, taken
from domain.game import Command, DeclareAccuso, PlayCard


def legal_commands(state: CirullaState) -> tuple[Command, ...]:
    if state.finished or not state.dealt:
        return ()
    hand = state.hands[state.to_move]
    if UNKNOWN in hand:
        seen = tuple(c for c in hand if c is not UNKNOWN)
        state = state._replace(hands=(*state.hands[:state.to_move], seen,
                                      *state.hands[state.to_move + 1:]))
        return tuple(PlayCard(state.to_move, p[0], taken(p)) for p in legal_plays(state))
    accusi = _accusi(state)
    if accusi and state.ruleset.accuso is Accuso.OBBLIGATORIO:
        return accusi
    seat = state.to_move
    plays = tuple(PlayCard(seat, play[0], taken(play)) for play in legal_plays(state))
    return accusi + plays


def _accusi(state: CirullaState) -> tuple[Command, ...]:
    seat = state.to_move
    hand = state.hands[seat]
    # decide's own conditions (C17): three cards in hand, none declared with them yet.
    if state.ruleset.accuso is Accuso.AUTOMATICO or len(hand) != 3 or state.declared[seat]:
        return ()
    return tuple(DeclareAccuso(seat, option.kind, option.matta_value)
                 for option in player_accusi(hand, state.ruleset))
