"""Issue 23, point 6: each step of a replay shows the state after its own event, never a draw
still to come. At the play that completes a Briscola trick the trick is on the table and no
hand is refilled; at its TrickTaken the trick is taken and still nobody has drawn; the cards
appear in the hands at the CardsDrawn. Cirulla's new hands appear at their HandDealt.

The oracle is the event log alone (dealt_by_events.py): at every version of random live matches
(both games, 2 and 4 players, the last tricks with no stock), every viewer (each seat, the
public, the arbiter, every visibility option) sees a seat holding only what the events so far
gave it, and the arbiter sees the stock the events left.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.events import CardPlayed, CardsDrawn, TrickTaken
from domain.record.catalog import CATALOG
from domain.record.timeline import Timeline, timeline
from domain.viewing import ARBITER, PUBLIC, Observation, Visibility
from tests.domain.record.dealt_by_events import Dealt, dealt_by_events
from tests.domain.record.live import LiveMatch, live_matches

OPTIONS = (Visibility(), Visibility(carte_viste=True), Visibility(carte_scoperte=True),
           Visibility(carte_viste=True, carte_scoperte=True))
CASES = [(game, players) for game in ("briscola", "cirulla") for players in (2, 4)]


def matches_of(game: str, players: int) -> st.SearchStrategy[LiveMatch]:
    return live_matches().filter(lambda m: m.game == game and m.players == players)


def check_view(obs: Observation, dealt: Dealt, where: str) -> None:
    """What `obs` shows of the hands and the stock is what the events gave out by then."""
    if not obs.dealt:
        assert all(not hand for hand in obs.hands if hand is not None), where
        return
    assert dealt.out, f"{where}: cards out before a deal"
    for seat, hand in enumerate(obs.hands):
        assert obs.hand_sizes[seat] == sum(dealt.hands[seat].values()), (
            f"{where}: seat {seat + 1} holds {obs.hand_sizes[seat]} cards, the events gave "
            f"it {sorted(dealt.hands[seat].elements())}")
        if hand is not None:
            assert Counter(hand) == dealt.hands[seat], (
                f"{where}: seat {seat + 1} is shown {sorted(hand)}, the events gave it "
                f"{sorted(dealt.hands[seat].elements())}")
        assert Counter(obs.shown[seat]) <= dealt.hands[seat], where
    assert obs.stock_size == len(dealt.stock), where
    if obs.viewer is ARBITER:
        assert obs.stock == dealt.stock, where


def check_trick_steps(line: Timeline, version: int, event: object, players: int) -> None:
    """Briscola: the completing play leaves the whole trick on the table with nobody to move;
    TrickTaken clears it."""
    obs = line.observe(version, ARBITER)
    if isinstance(event, CardPlayed) and len(obs.table) == players:
        assert obs.mano[-1] == event and [p.card for p in obs.mano] == list(obs.table)
        assert line.state(version).to_move() is None and line.legal_commands(version) == ()
    if isinstance(event, TrickTaken):
        assert obs.table == () and set(event.cards).isdisjoint(obs.mano)


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{p}p" for g, p in CASES])
@settings(max_examples=max(4, settings().max_examples // 10))
@given(data=st.data())
def test_ogni_passo_mostra_solo_le_carte_gia_pescate(data: st.DataObject, game: str,
                                                     players: int) -> None:
    match = data.draw(matches_of(game, players))
    visibility = data.draw(st.sampled_from(OPTIONS if players == 4 else OPTIONS[:2]))
    recorded = [event for event, _ in match.recorded]
    line = timeline(CATALOG, match.recorded)
    dealt = dealt_by_events(players, recorded)
    draws = 0
    for version in range(2, len(line)):
        event = recorded[version - 1]
        for viewer in (*range(players), PUBLIC, ARBITER):
            check_view(line.observe(version, viewer, visibility), dealt[version],
                       f"{match!r} version {version} ({type(event).__name__}), {viewer}")
        if game == "briscola":
            check_trick_steps(line, version, event, players)
        draws += isinstance(event, CardsDrawn)
    assert game == "cirulla" or draws or len(recorded) < 12, "no draw was stepped through"
