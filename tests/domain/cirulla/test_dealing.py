"""The deal (source 000, "Distribuzione delle carte"), C1 and C2."""

from __future__ import annotations

from itertools import combinations
from math import comb

from domain.cards import DECK
from domain.cirulla.dealing import distribute, next_hands, redeal_reason
from domain.cirulla.engine import deal_events, evolve
from domain.cirulla.ruleset import STANDARD, DealOrder, Redeal, Ruleset
from domain.cirulla.state import empty_state
from domain.events import DealAnnulled, SmazzataDealt
from domain.seating import Direction, Seating
from domain.shuffle import Seed, commitment, shuffled_deck
from tests.domain.cirulla.helpers import cards
from tests.replacing import replace

ALTERNATA = replace(STANDARD, deal_order=DealOrder.ALTERNATA, direction=Direction.CLOCKWISE)
TRE_RE = replace(STANDARD, redeal=Redeal.TRE_RE)
MAI = replace(STANDARD, redeal=Redeal.MAI)


def test_ne_da_3_ad_ogni_giocatore_una_alla_volta_poi_4_carte_in_tavola() -> None:
    """000: "Il sistema mescola le carte e ne da 3 ad ogni giocatore distribuendole una alla
    volta, in senso antiorario, partendo dal giocatore alla destra del mazziere. Quindi vengono
    poste 4 carte scoperte in tavola."  Seat 1 sits at the right of dealer 0."""
    hands, table, stock = distribute(DECK, STANDARD, Seating(2), dealer=0)
    assert hands == ((DECK[1], DECK[3], DECK[5]), (DECK[0], DECK[2], DECK[4]))
    assert table == DECK[6:10] and stock == DECK[10:]
    hands, table, stock = distribute(DECK, STANDARD, Seating(4), dealer=1)
    assert [h[0] for h in hands] == [DECK[2], DECK[3], DECK[0], DECK[1]]
    assert table == DECK[12:16] and stock == DECK[16:]


def test_c2_distribuzione_alternata_e_in_senso_orario() -> None:
    """C2, options deal_order=alternata and direction=clockwise (002): "you put a card down,
    uncovered, then you give one to each of the players, clockwise. When everybody has one,
    you put another down uncovered. Repeat until everyone's got three cards (and three are on
    the table) then put another one uncovered on the table"."""
    hands, table, stock = distribute(DECK, ALTERNATA, Seating(4, Direction.CLOCKWISE), dealer=0)
    # Clockwise from dealer 0 the order is 3, 2, 1, 0; every fifth card goes to the table.
    assert table == (DECK[0], DECK[5], DECK[10], DECK[15])
    assert hands[3] == (DECK[1], DECK[6], DECK[11])
    assert hands[2] == (DECK[2], DECK[7], DECK[12])
    assert hands[0] == (DECK[4], DECK[9], DECK[14])
    assert stock == DECK[16:]
    hands, table, _ = distribute(DECK, replace(STANDARD, deal_order=DealOrder.ALTERNATA),
                                 Seating(2), dealer=0)
    assert table == (DECK[0], DECK[3], DECK[6], DECK[9])
    assert hands == ((DECK[2], DECK[5], DECK[8]), (DECK[1], DECK[4], DECK[7]))


def test_the_later_hands_come_from_the_stock_in_the_same_order() -> None:
    """After each hand of three, three more each, one at a time from the dealer's right (000 is
    silent on the manner: the first deal's is kept)."""
    hands, rest = next_hands(DECK[10:], Seating(2), dealer=1)
    assert hands == ((DECK[10], DECK[12], DECK[14]), (DECK[11], DECK[13], DECK[15]))
    assert rest == DECK[16:]


def test_il_giocatore_alla_destra_del_mazziere_e_il_giocatore_di_mano() -> None:
    """000: "Il giocatore seduto alla destra del mazziere è il giocatore di mano, cioè il primo a
    dover effettuare la giocata"."""
    for players in (2, 4):
        seating = Seating(players)
        for dealer in range(players):
            events = deal_events(MAI, seating, dealer, 0, Seed(b"\x01" * 16))
            state = empty_state(MAI, seating, dealer)
            for event in events:
                state = evolve(state, event)
            assert state.to_move == (dealer + 1) % players


def test_c1_due_assi_in_tavola_la_mano_va_a_monte() -> None:
    """000: "Se nella distribuzione iniziale sono presenti due assi, la mano va a monte e il
    sistema mischia e ridistribuisce le carte" (C1: two or more aces among the 4 table
    cards)."""
    assert redeal_reason(cards("Ad Ac 5b 7s"), STANDARD) == "2 assi in tavola"
    assert redeal_reason(cards("Ad Ac Ab 7s"), STANDARD) == "3 assi in tavola"
    assert redeal_reason(cards("Ad 2c 5b 7s"), STANDARD) is None
    assert redeal_reason(cards("Rd Rc Rb 7s"), STANDARD) is None


def test_c1_tre_re_by_option() -> None:
    """C1, option redeal=tre-re (001): "se almeno 3 delle 4 carte iniziali sul tavolo sono Re,
    la mano non viene giocata e si effettua una nuova distribuzione delle carte"."""
    assert redeal_reason(cards("Rd Rc Rb 7s"), TRE_RE) == "3 re in tavola"
    assert redeal_reason(cards("Rd Rc Rb Rs"), TRE_RE) == "4 re in tavola"
    assert redeal_reason(cards("Rd Rc 5b 7s"), TRE_RE) is None
    assert redeal_reason(cards("Ad Ac 5b 7s"), TRE_RE) is None


def test_c1_mai_by_option() -> None:
    """C1, option redeal=mai (002 has no redeal)."""
    for table in ("Ad Ac Ab As", "Rd Rc Rb Rs"):
        assert redeal_reason(cards(table), MAI) is None


def _first_seed_annulled(ruleset: Ruleset, players: int) -> Seed:
    for n in range(20_000):
        seed = Seed(n.to_bytes(16, "big"))
        _, table, _ = distribute(shuffled_deck(seed, 0), ruleset, Seating(players), 0)
        if redeal_reason(table, ruleset) is not None:
            return seed
    raise AssertionError("no annulled deal in 20,000 seeds")


def _check_attempts(ruleset: Ruleset, seed: Seed, players: int, reason_word: str) -> None:
    seating = Seating(players)
    events = deal_events(ruleset, seating, 0, 0, seed)
    deals = [e for e in events if isinstance(e, SmazzataDealt)]
    annulled = [e for e in events if isinstance(e, DealAnnulled)]
    assert len(deals) == len(annulled) + 1 >= 2
    assert [d.attempt for d in deals] == list(range(len(deals)))
    assert [a.attempt for a in annulled] == list(range(len(annulled)))
    for deal, cut in zip(deals, annulled, strict=False):
        assert cut.reason == redeal_reason(deal.table, ruleset) and reason_word in cut.reason
    for deal in deals:
        # "il sistema mischia e ridistribuisce": each attempt is its own shuffle of the seed.
        assert (deal.hands, deal.table, deal.stock) == distribute(
            shuffled_deck(seed, deal.attempt), ruleset, seating, 0)
        assert deal.seed_commitment == commitment(seed)
    assert redeal_reason(deals[-1].table, ruleset) is None
    state = empty_state(ruleset, seating)
    for event in events:
        state = evolve(state, event)
        if isinstance(event, (SmazzataDealt, DealAnnulled)):
            assert state.dealt is isinstance(event, SmazzataDealt)
    assert state.dealt and sorted(state.table) == sorted(deals[-1].table)


def test_c1_an_annulled_deal_is_recorded_and_the_next_attempt_follows() -> None:
    """C1: "la mano va a monte e il sistema mischia e ridistribuisce le carte": a DealAnnulled
    with its reason, then the deal of the next attempt, until one stands."""
    for players in (2, 4):
        seed = _first_seed_annulled(STANDARD, players)
        _check_attempts(STANDARD, seed, players, "assi")
        no_redeal = deal_events(MAI, Seating(players), 0, 0, seed)
        assert [type(e) for e in no_redeal][:1] == [SmazzataDealt]
        assert not any(isinstance(e, DealAnnulled) for e in no_redeal)


def test_c1_tre_re_annulled_deal() -> None:
    """C1 with redeal=tre-re: a table of three kings is annulled with its reason."""
    seed = _first_seed_annulled(TRE_RE, 2)
    _check_attempts(TRE_RE, seed, 2, "re")


def test_the_deal_uses_every_card_once() -> None:
    """000: "Si gioca con un mazzo di 40 carte": hands, table and stock are the whole deck."""
    for ruleset in (STANDARD, ALTERNATA):
        for players in (2, 4):
            seating = Seating(players, ruleset.direction)
            hands, table, stock = distribute(shuffled_deck(Seed(b"\x07" * 16)), ruleset,
                                             seating, 0)
            every = [*table, *stock, *(c for h in hands for c in h)]
            assert sorted(every) == list(DECK) and len(table) == 4
            assert all(len(h) == 3 for h in hands)


def _at_least(k: int, of: int, size: int = 4) -> int:
    """Tables of `size` cards holding at least `k` of the `of` cards of one rank."""
    return sum(comb(of, x) * comb(40 - of, size - x) for x in range(k, min(of, size) + 1))


def test_c1_exact_chance_of_a_redeal_per_option() -> None:
    """C1 over all C(40, 4) = 91,390 tables: "due assi" annuls the tables with 2+ aces, 001's
    "almeno 3 delle 4 carte iniziali sul tavolo sono Re" those with 3+ kings, 002 none; the
    counts are the hypergeometric ones (docs/shuffle.md, section 13)."""
    tables = list(combinations(DECK, 4))
    assert len(tables) == comb(40, 4)
    for ruleset, expected in ((STANDARD, _at_least(2, 4)), (TRE_RE, _at_least(3, 4)),
                              (MAI, 0)):
        assert sum(1 for t in tables if redeal_reason(t, ruleset) is not None) == expected
