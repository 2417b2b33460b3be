"""The deal layouts ask the game registry how each game deals (Game.dealing)."""

from __future__ import annotations

import pytest

from domain.games import games
from projections.fairness.deals import BRISCOLA, STOCK, TABLE, DealLayout, DealRecordError


def test_a_game_without_dealing_parts_has_no_layout() -> None:
    dealing = ", ".join(g.name for g in games() if g.dealing is not None)
    with pytest.raises(DealRecordError, match=f"expected one of {dealing}"):
        DealLayout("tressette", 2, "uno-alla-volta").locations(0)


@pytest.mark.parametrize(("game", "order", "face_up", "table", "stock_drawn"), [
    ("cirulla", "uno-alla-volta", 0, 4, False), ("briscola", "briscola", 1, 0, True),
    ("scopa", "uno-alla-volta", 0, 4, False)])
def test_every_card_of_the_deck_has_one_receiver(game: str, order: str, face_up: int,
                                                 table: int, stock_drawn: bool) -> None:
    """A stock dealt round the table (Cirulla, Scopa) gives each of its cards a seat; one drawn
    as play decides (Briscola) leaves them to the stock."""
    for seats in (2, 4):
        stock = 40 - 3 * seats - table - face_up
        for dealer in range(seats):
            receivers = DealLayout(game, seats, order).receivers(dealer)
            assert len(receivers) == 40
            assert receivers.count(BRISCOLA) == face_up and receivers.count(TABLE) == table
            assert receivers.count(STOCK) == (stock if stock_drawn else 0)
            per_seat = {receivers.count(seat) for seat in range(seats)}
            assert per_seat == {3 if stock_drawn else 3 + stock // seats}
