"""Both games deal the same seed through the same shuffle and the same deal order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from domain.briscola.engine import deal_event
from domain.cirulla.engine import deal_events
from domain.cirulla.ruleset import Ruleset
from domain.events import SmazzataDealt
from domain.seating import Seating
from domain.shuffle import Seed, shuffled_deck

seeds = st.binary(min_size=16, max_size=32).map(Seed)


@given(seeds, st.sampled_from((2, 4)), st.integers(0, 3))
def test_the_same_seed_gives_the_same_deal_for_both_games(seed: Seed, players: int,
                                                          dealer: int) -> None:
    dealer %= players
    seating = Seating(players)
    briscola = deal_event(seating, dealer, 0, seed)
    cirulla = deal_events(Ruleset(), seating, dealer, 0, seed)[0]
    assert isinstance(cirulla, SmazzataDealt) and cirulla.attempt == briscola.attempt == 0
    assert cirulla.seed_commitment == briscola.seed_commitment
    # 3 cards each one at a time from the dealer's right in both (000 and 004 say the same).
    assert cirulla.hands == briscola.hands
    # The rest of the same deck: Cirulla's 4 table cards then its stock, Briscola's face-up card
    # then its stock.
    rest = shuffled_deck(seed, 0)[3 * players:]
    assert (*cirulla.table, *cirulla.stock) == rest
    assert briscola.briscola is not None
    assert (briscola.briscola, *briscola.stock) == rest
