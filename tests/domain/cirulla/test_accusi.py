"""Accusi (source 000, "Accusi"): the dealer's 15 and 30, the player's cirulla and decino."""

from __future__ import annotations

from itertools import combinations

import pytest

from domain.cards import DECK, MATTA, Card
from domain.cirulla import engine
from domain.cirulla.accusi import (
    CIRULLA,
    DECINO,
    QUINDICI,
    TRENTA,
    AccusoOption,
    best_accuso,
    dealer_accuso,
    player_accusi,
)
from domain.cirulla.engine import deal_events, evolve
from domain.cirulla.ruleset import STANDARD, Accuso, Redeal
from domain.cirulla.state import empty_state
from domain.events import AccusoDeclared, SmazzataDealt
from domain.seating import Seating
from domain.shuffle import Seed
from tests.domain.cirulla.helpers import cards
from tests.replacing import replace

SEED = Seed(b"\x5e" * 16)


def kinds(hand: str, decino_tre_assi: int = 10) -> dict[str, int]:
    ruleset = replace(STANDARD, decino_tre_assi=decino_tre_assi)
    return {o.kind: o.points for o in player_accusi(cards(hand), ruleset)}


def _deck_with_table(table: tuple[Card, ...]) -> tuple[Card, ...]:
    """A 2-player deck (dealer 0, 000 order) whose four table cards are `table`."""
    rest = [c for c in DECK if c not in table]
    return (*rest[:6], *table, *rest[6:])


# ---- the dealer ---------------------------------------------------------------------------------

def test_mazziere_somma_esattamente_15_fa_1_punto() -> None:
    """000: "Se la somma delle 4 carte in tavola scoperte dal mazziere è esattamente uguale a
    15, il mazziere fa 1 punto ("gira una scopa")"."""
    assert dealer_accuso(cards("Ad 2c 5b 7s")) == AccusoOption(QUINDICI, 1, None)
    assert dealer_accuso(cards("Ad 2c 5b 6s")) is None       # 14
    assert dealer_accuso(cards("2d 2c 5b 7s")) is None       # 16


def test_mazziere_somma_esattamente_30_fa_2_punti() -> None:
    """000: "è esattamente uguale a 30, il mazziere fa 2 punti ("gira due scope")"."""
    assert dealer_accuso(cards("Rd Rc 5b 5s")) == AccusoOption(TRENTA, 2, None)
    assert dealer_accuso(cards("Rd Rc 5b 4s")) is None       # 29


@pytest.mark.parametrize("mode", list(Accuso))
def test_il_mazziere_prende_tutte_le_carte_e_il_suo_accuso_e_sempre_automatico(
        mode: Accuso, monkeypatch: pytest.MonkeyPatch) -> None:
    """000: "Inoltre, in tutti e due i casi, il mazziere prende tutte le carte scoperte in
    tavola" and "L'accuso del mazziere è sempre automatico" (whatever the accuso option)."""
    table = cards("Ad 2c 5b 7s")
    monkeypatch.setattr(engine, "shuffled_deck", lambda seed, attempt: _deck_with_table(table))
    ruleset = replace(STANDARD, accuso=mode, redeal=Redeal.DUE_ASSI)
    seating = Seating(2)
    events = deal_events(ruleset, seating, 0, 0, SEED)
    assert isinstance(events[0], SmazzataDealt) and events[0].table == table
    assert events[1:] == (AccusoDeclared(seat=0, kind=QUINDICI, cards=table, points=1),)
    state = empty_state(ruleset, seating)
    for event in events:
        state = evolve(state, event)
    assert state.table == () and sorted(state.captured[0]) == sorted(table)
    assert state.last_capture_side == 0 and state.scope == (0, 0)


# ---- the player ---------------------------------------------------------------------------------

def test_cirulla_somma_uguale_o_inferiore_a_9_realizza_3_punti() -> None:
    """000: "cirulla: se la somma delle tre carte è uguale o inferiore a 9 realizza 3 punti
    ("gira 3 scope")"."""
    assert kinds("Ad 3c 5b") == {CIRULLA: 3}          # 9
    assert kinds("Ad 2c 2b") == {CIRULLA: 3}          # 5
    assert kinds("Ad 3c 6b") == {}                    # 10


def test_decino_tre_carte_uguali_realizza_10() -> None:
    """000: "decino: se possiede tre carte uguali realizza 10 ("gira 10 scope")"; 002: "no
    matter if they total more than 9"."""
    assert kinds("4d 4c 4b") == {DECINO: 10}
    assert kinds("Rd Rc Rb") == {DECINO: 10}
    assert kinds("Rd Rc Cb") == {}


def test_c7_decino_di_tre_assi_vale_11_by_option() -> None:
    """C7, option decino_tre_assi=11 (002): "In some versions of the game the "buona da 10"
    with three aces is worth eleven points"; 000's decino "realizza 10" is the standard."""
    assert kinds("Ad Ac Ab") == {CIRULLA: 3, DECINO: 10}
    assert kinds("Ad Ac Ab", decino_tre_assi=11) == {CIRULLA: 3, DECINO: 11}
    assert kinds("2d 2c 2b", decino_tre_assi=11) == {CIRULLA: 3, DECINO: 10}


def test_c17_a_hand_both_cirulla_and_decino_offers_both_and_the_automatic_takes_more() -> None:
    """C17: "il giocatore di mano può accusare le seguenti combinazioni" (cirulla, decino):
    A-A-A, 2-2-2, 3-3-3 are both; the player declares one, the automatic accuso the one worth
    more ("il sistema effettua l'accuso automaticamente")."""
    for hand in ("Ad Ac Ab", "2d 2c 2b", "3d 3c 3b", "7c 2d 2b"):
        options = player_accusi(cards(hand), STANDARD)
        assert {o.kind for o in options} == {CIRULLA, DECINO}
        best = best_accuso(options)
        assert best is not None and best.kind == DECINO
    assert kinds("4d 4c 4b") == {DECINO: 10}                # 12: a decino only


def test_an_accuso_needs_three_cards_in_hand() -> None:
    """000: "scoprendo le sue carte prima di aver effettuato la sua giocata": the three cards."""
    assert player_accusi(cards("Ad 2c"), STANDARD) == ()
    assert player_accusi((), STANDARD) == ()


def test_every_three_card_hand_makes_the_accusi_the_text_says() -> None:
    """All 9,880 hands against the sentences, the matta valued as 000 says ("in caso di cirulla
    il 7 di cuori vale sempre asso"; in a decino "l'unico valore che consente di effettuare
    l'accuso")."""
    for hand in combinations(DECK, 3):
        others = [c for c in hand if c is not MATTA]
        with_matta = len(others) == 2
        total = sum(c.value for c in others) + (1 if with_matta else 0)
        same = len({c.rank for c in others}) == 1
        expected: dict[str, tuple[int, int | None]] = {}
        if total <= 9:
            expected[CIRULLA] = (3, 1 if with_matta else None)
        if same:
            rank = others[0].rank
            matta = int(rank) if with_matta else None
            expected[DECINO] = (10, matta)
        got = {o.kind: (o.points, o.matta_value) for o in player_accusi(hand, STANDARD)}
        assert got == expected, hand


def test_the_dealer_s_accuso_over_every_table() -> None:
    """All 91,390 tables against 000: "Se la somma delle 4 carte in tavola scoperte dal mazziere
    è esattamente uguale a 15 ... 1 punto ... uguale a 30 ... 2 punti", the matta taking any
    value from 1 to 10 that makes one ("l'unico valore che consente di effettuare l'accuso")."""
    names = {15: (QUINDICI, 1), 30: (TRENTA, 2)}
    found: list[tuple[tuple[str, int], int | None]]
    for table in combinations(DECK, 4):
        if MATTA in table:
            rest = sum(c.value for c in table if c is not MATTA)
            found = [(names[t], v) for t in (15, 30) for v in range(1, 11) if rest + v == t]
        else:
            total = sum(c.value for c in table)
            found = [(names[total], None)] if total in names else []
        option = dealer_accuso(table)
        if not found:
            assert option is None, table
        else:
            assert len(found) == 1
            (kind, points), matta = found[0]
            assert option == AccusoOption(kind, points, matta), table


@pytest.mark.parametrize("mode", list(Accuso))
def test_c8_the_first_player_s_automatic_accuso_comes_with_the_deal(
        mode: Accuso, monkeypatch: pytest.MonkeyPatch) -> None:
    """C8: "il sistema effettua l'accuso automaticamente a meno che il giocatore non lo abbia
    disattivato": the giocatore di mano's cirulla is declared as his turn begins, right after
    the deal; with the automatism off (facoltativo, obbligatorio) nobody declares it for him."""
    hand = cards("Ad 2c 3b")
    rest = [c for c in DECK if c not in hand]
    deck = (hand[0], rest[0], hand[1], rest[1], hand[2], rest[2], *rest[3:])
    monkeypatch.setattr(engine, "shuffled_deck", lambda seed, attempt: deck)
    ruleset = replace(STANDARD, accuso=mode, redeal=Redeal.MAI)
    events = deal_events(ruleset, Seating(2), 0, 0, SEED)
    accusi = [e for e in events if isinstance(e, AccusoDeclared) and e.kind == CIRULLA]
    if mode is Accuso.AUTOMATICO:
        assert accusi == [AccusoDeclared(seat=1, kind=CIRULLA, cards=hand, points=3)]
    else:
        assert accusi == []
