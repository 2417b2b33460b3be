"""The simulation bot: always a legal card; the cheapest that takes the trick when one does."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from domain.briscola.bot import choose_card, cost
from domain.briscola.state import legal_plays, seat_of_position
from domain.briscola.values import trick_winner
from domain.shuffle import Seed
from tests.domain.briscola.helpers import random_smazzata, seeds, table_sizes


@given(seeds, table_sizes, st.randoms(use_true_random=False))
def test_the_bot_plays_a_legal_card_and_takes_cheaply(seed: Seed, players: int,
                                                      rng: random.Random) -> None:
    for state in random_smazzata(seed, players, rng).states:
        if state.turn is None:
            continue
        hand = legal_plays(state)
        chosen = choose_card(state)
        assert chosen in hand
        briscola = state.setup.briscola
        assert briscola is not None
        if not state.table:
            assert cost(state, chosen) == min(cost(state, c) for c in hand)
            continue
        taking = seat_of_position(state, trick_winner(state.table, briscola.suit))
        sides = state.setup.sides
        winners = [c for c in hand
                   if trick_winner((*state.table, c), briscola.suit) == len(state.table)]
        if winners and sides[taking] != sides[state.turn]:
            assert cost(state, chosen) == min(cost(state, c) for c in winners)
        else:
            assert cost(state, chosen) == min(cost(state, c) for c in hand)
