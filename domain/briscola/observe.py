"""One viewer's view of a Briscola smazzata, read off the engine's state (domain/viewing.py).

The state holds the hands, the stock (the face-up briscola card last), the trick on the table,
the tricks taken and their points; the plays of the smazzata (the earlier tricks, for carte
viste) are handed in. The state after each event is that event's own (engine.py): the view
right after the card that completes a trick shows the whole trick on the table and no hand
refilled, the view after its TrickTaken the trick taken and still no draw, the view after its
CardsDrawn the cards drawn. Cards are passed through, never asked for their suit or value, so a
transcribed record's unknown card (`??`) is shown like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.briscola.state import BriscolaState, is_over
from domain.cards import UNKNOWN, Card
from domain.events import CardPlayed
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
    visible_seats,
)

GAME = "briscola"


def observe(state: BriscolaState, viewer: Viewer, visibility: Visibility,
            plays: Sequence[CardPlayed]) -> Observation:
    """`viewer`'s view of `state`; `plays` are the CardPlayed of its smazzata so far."""
    setup = state.setup
    seating = setup.seating
    check_viewer(seating, viewer)
    if not setup.dealt:
        return no_smazzata(GAME, seating, viewer, setup.number, setup.dealer)
    # Every card played is on the table or in a pile of tricks taken.
    check_plays(GAME, plays, len(state.table) + len(state.taken[0]) + len(state.taken[1]))
    finished = is_over(state)
    face_up = is_last_hand_face_up(visibility, seating.players, not state.stock, finished)
    seats = visible_seats(seating, viewer, visibility, face_up)
    # The mano in progress is the trick on the table, complete until its TrickTaken.
    done = len(plays) - len(state.table)
    mano, seen = tuple(plays[done:]), tuple(plays[:done]) if visibility.carte_viste else ()
    return Observation(
        game=GAME, viewer=viewer, number=setup.number, dealer=setup.dealer,
        hands=hands_seen(state.hands, seats), hand_sizes=tuple(map(len, state.hands)),
        shown=shown(state), table=state.table, briscola=setup.briscola,
        stock_size=len(state.stock), stock=state.stock if viewer is ARBITER else None,
        captured_sizes=(len(state.taken[0]), len(state.taken[1])), scope=(0, 0),
        points=state.points, accusi=(), mano=mano, seen=seen, last_hand_face_up=face_up,
        finished=finished)


def shown(state: BriscolaState) -> tuple[tuple[Card, ...], ...]:
    """The briscola card is turned face up at the deal (004): whoever draws it, last, is seen
    holding it until it is played. An unknown briscola card says nothing about who holds it."""
    briscola = state.setup.briscola
    return tuple((briscola,) if briscola is not None and briscola is not UNKNOWN
                 and briscola in hand else () for hand in state.hands)
