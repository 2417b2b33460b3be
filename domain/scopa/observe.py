"""One viewer's view of a Scopa smazzata, read off the engine's state (domain/viewing.py).

As in Cirulla (domain/cirulla/observe.py): the hands the viewer may see, the table in deck order,
the stock's size (its order to the arbiter only), the piles' sizes and the scope; Scopa has no
accusi and no points before the smazzata's end.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.events import CardPlayed
from domain.scopa.state import ScopaState
from domain.viewing import (
    ARBITER,
    Observation,
    Viewer,
    Visibility,
    check_plays,
    check_viewer,
    hands_seen,
    is_last_hand_face_up,
    no_smazzata,
    split_plays,
    visible_seats,
)

GAME = "scopa"


def observe(state: ScopaState, viewer: Viewer, visibility: Visibility,
            plays: Sequence[CardPlayed]) -> Observation:
    """`viewer`'s view of `state`; `plays` are the CardPlayed of its smazzata so far."""
    seating = state.seating
    check_viewer(seating, viewer)
    if not state.dealt:
        return no_smazzata(GAME, seating, viewer, state.number, state.dealer)
    check_plays(GAME, plays, state.plays)
    face_up = is_last_hand_face_up(visibility, seating.players, not state.stock, state.finished)
    seats = visible_seats(seating, viewer, visibility, face_up)
    mano, seen = split_plays(plays, seating.players, visibility)
    return Observation(
        game=GAME, viewer=viewer, number=state.number, dealer=state.dealer,
        hands=hands_seen(state.hands, seats), hand_sizes=tuple(map(len, state.hands)),
        shown=((),) * seating.players, table=tuple(sorted(state.table)), briscola=None,
        stock_size=len(state.stock), stock=state.stock if viewer is ARBITER else None,
        captured_sizes=(len(state.captured[0]), len(state.captured[1])), scope=state.scope,
        points=(0, 0), accusi=(), mano=mano, seen=seen, last_hand_face_up=face_up,
        finished=state.finished)
