"""The shared deal order: one card at a time, round the table, from the dealer's right."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import DECK, Card
from domain.dealing import DealError, deal_round_robin
from domain.seating import Seating


def test_ne_da_3_ad_ogni_giocatore_una_alla_volta_partendo_dalla_destra_del_mazziere() -> None:
    """000 and 004: "ne da 3 ad ogni giocatore distribuendole una alla volta, in senso
    antiorario, partendo dal giocatore alla destra del mazziere"."""
    hands, rest = deal_round_robin(DECK, Seating(4), dealer=2, per_seat=3)
    # Seat 3 sits at the right of dealer 2 and gets the first card, then 0, 1 and 2.
    assert hands[3] == (DECK[0], DECK[4], DECK[8])
    assert hands[0] == (DECK[1], DECK[5], DECK[9])
    assert hands[1] == (DECK[2], DECK[6], DECK[10])
    assert hands[2] == (DECK[3], DECK[7], DECK[11])
    assert rest == DECK[12:]


@given(st.sampled_from((2, 4)), st.integers(0, 3), st.integers(0, 10), st.permutations(DECK))
def test_every_card_goes_once_and_in_round_order(players: int, dealer: int, per_seat: int,
                                                 deck: list[Card]) -> None:
    seating = Seating(players)
    dealer %= players
    hands, rest = deal_round_robin(tuple(deck), seating, dealer, per_seat)
    assert all(len(h) == per_seat for h in hands)
    assert sorted([*(c for h in hands for c in h), *rest]) == sorted(DECK)
    order = seating.order_from(seating.first_after_dealer(dealer))
    dealt = [hands[seat][k] for k in range(per_seat) for seat in order]
    assert dealt == list(deck[:players * per_seat])


def test_a_deal_larger_than_the_deck_is_refused_with_the_numbers() -> None:
    with pytest.raises(DealError, match="11 cards to each of 4 seats from a deck of 40"):
        deal_round_robin(DECK, Seating(4), 0, 11)
