"""One viewer's view of a Scopa smazzata, read off the engine's state (domain/viewing.py).

As in Cirulla (domain/cirulla/observe.py): the hands the viewer may see, the table in deck order,
the stock's size (its order to the arbiter only), the piles' sizes and the scope; Scopa has no
accusi and no points before the smazzata's end.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.events import CardPlayed
from domain.scopa.state import ScopaState
from domain.viewing import Observation, Viewer, Visibility, table_view

GAME = "scopa"


def observe(state: ScopaState, viewer: Viewer, visibility: Visibility,
            plays: Sequence[CardPlayed]) -> Observation:
    """`viewer`'s view of `state`; `plays` are the CardPlayed of its smazzata so far."""
    return table_view(GAME, state, viewer, visibility, plays)
