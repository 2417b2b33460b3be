"""The exact probabilities of projections/fairness against an enumeration written apart.

Nothing here imports the rules code (domain/cirulla/dealing.py, accusi.py, the engines): this
file has its own card model (value 1..10 and suit letter, read from a card's printed code) and
its own reading of the rule sentences, quoted where they are used. It imports the ruleset's
option types (to ask for a ruleset), the deck and `SmazzataDealt` (to build dealt smazzate as the
store holds them), and the module under test. The hand counts conditioned on a deal that stands
are computed here by a different method from the production one: per number of aces (kings) in
the hand, a hypergeometric count of the tables that go a monte, instead of inclusion–exclusion
over the enumerated tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import fields
from enum import Enum
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.briscola.state import BriscolaRules
from domain.cards import DECK, UNKNOWN, Card
from domain.cirulla.ruleset import STANDARD, TAVERNA, Redeal, Ruleset
from domain.events import SmazzataDealt
from domain.seating import Direction
from projections.fairness.events import EventKind, ExactEvent, Population, Role, observe
from projections.fairness.exact import (
    NoExactProbabilities,
    catalogue,
    exact_probabilities,
)
from tests.replacing import replace

# ---- the card model of this file -----------------------------------------------------------

Carta = tuple[int, str]                      # (value 1..10, suit letter d c b s)
MAZZO: tuple[Carta, ...] = tuple((v, s) for s in "dcbs" for v in range(1, 11))
ASSO, SETTE, RE = 1, 7, 10
# 000: "Il 7 di cuori (coppe) diventa una "matta""
MATTA: Carta = (SETTE, "c")
_LETTERS = {"A": 1, "F": 8, "C": 9, "R": 10}


def carta(card: Card) -> Carta:
    """A deck card in this file's model, read from its printed code (`7c`, `Rd`, `Ab`)."""
    code = card.code
    rank = code[:-1]
    return (_LETTERS[rank] if rank in _LETTERS else int(rank), code[-1])


# ---- the rules as written ----------------------------------------------------------------------


def due_assi(table: tuple[Carta, ...]) -> bool:
    # 000: "Se nella distribuzione iniziale sono presenti due assi, la mano va a monte",
    # read (rules-interpretations C1) as two or more aces among the four table cards.
    return sum(1 for v, _ in table if v == ASSO) >= 2


def tre_re(table: tuple[Carta, ...]) -> bool:
    # 001: "se almeno 3 delle 4 carte iniziali sul tavolo sono Re, la mano non viene giocata"
    return sum(1 for v, _ in table if v == RE) >= 3


def a_monte(table: tuple[Carta, ...], reading: Redeal) -> bool:
    # 002 has no redeal ("mai").
    if reading is Redeal.DUE_ASSI:
        return due_assi(table)
    return tre_re(table) if reading is Redeal.TRE_RE else False


def matta_values(cards: tuple[Carta, ...]) -> list[tuple[int, ...]]:
    # 000: "Il 7 di cuori (coppe) diventa una "matta", cioè può assumere qualsiasi valore da 1 a
    # 10 soltanto se consente di aggiudicarsi un qualsiasi accuso": every value the cards can
    # show, the matta taking each of 1..10 (its own 7 among them).
    others = tuple(v for v, s in cards if (v, s) != MATTA)
    if len(others) == len(cards):
        return [others]
    return [(*others, m) for m in range(1, 11)]


def dealer_total(table: tuple[Carta, ...]) -> int | None:
    # 000: "Se la somma delle 4 carte in tavola scoperte dal mazziere è esattamente uguale a 15,
    # il mazziere fa 1 punto ... uguale a 30, il mazziere fa 2 punti"
    totals = {sum(values) for values in matta_values(table)} & {15, 30}
    assert len(totals) <= 1, table
    return totals.pop() if totals else None


def is_cirulla(hand: tuple[Carta, ...]) -> bool:
    # 000: "cirulla: se la somma delle tre carte è uguale o inferiore a 9 realizza 3 punti"
    return any(sum(values) <= 9 for values in matta_values(hand))


def is_decino(hand: tuple[Carta, ...]) -> bool:
    # 000: "decino: se possiede tre carte uguali realizza 10"
    return any(len(set(values)) == 1 for values in matta_values(hand))


# Per dealer's event: the total it needs and whether the matta must be among the four cards
# (True), must not (False) or may (None).
TABLE_TESTS: dict[EventKind, tuple[int, bool | None]] = {
    EventKind.QUINDICI: (15, None),
    EventKind.QUINDICI_SENZA_MATTA: (15, False),
    EventKind.QUINDICI_CON_MATTA: (15, True),
    EventKind.TRENTA: (30, None),
    EventKind.TRENTA_SENZA_MATTA: (30, False),
    EventKind.TRENTA_CON_MATTA: (30, True),
}


def table_holds(kind: EventKind, table: tuple[Carta, ...]) -> bool:
    total, matta = TABLE_TESTS[kind]
    return dealer_total(table) == total and matta in (None, MATTA in table)


HAND_TESTS: dict[EventKind, Callable[[tuple[Carta, ...]], bool]] = {
    EventKind.CIRULLA: is_cirulla,
    EventKind.DECINO: is_decino,
    EventKind.ACCUSO: lambda h: is_cirulla(h) or is_decino(h),
}


# ---- the independent enumeration -----------------------------------------------------------


@cache
def tables_by_kind() -> dict[tuple[str, Redeal | None], Fraction]:
    """Per event and C1 reading: the probability over every table (readings: the redeals) or
    over the tables that stand (the dealer's accusi)."""
    counts: Counter[tuple[str, Redeal | None]] = Counter()
    for table in combinations(MAZZO, 4):
        holds = [kind.value for kind in TABLE_TESTS if table_holds(kind, table)]
        for reading in Redeal:
            if a_monte(table, reading):
                counts[("a-monte", reading)] += 1
                continue
            counts[("standing", reading)] += 1
            counts.update((kind, reading) for kind in holds)
    result: dict[tuple[str, Redeal | None], Fraction] = {
        ("a-monte", r): Fraction(counts[("a-monte", r)], comb(40, 4))
        for r in (Redeal.DUE_ASSI, Redeal.TRE_RE)}
    for reading in Redeal:
        for kind in TABLE_TESTS:
            result[(kind.value, reading)] = Fraction(counts[(kind.value, reading)],
                                                     counts[("standing", reading)])
    return result


def standing_tables(hand: tuple[Carta, ...], reading: Redeal) -> int:
    """The tables of 4 of the 37 cards not in `hand` that stand: a hypergeometric count on the
    aces (kings) left."""
    if reading is Redeal.MAI:
        return comb(37, 4)
    rank, least = (ASSO, 2) if reading is Redeal.DUE_ASSI else (RE, 3)
    left = 4 - sum(1 for v, _ in hand if v == rank)
    going = sum(comb(left, x) * comb(37 - left, 4 - x) for x in range(least, 5))
    return comb(37, 4) - going


@cache
def hands_by_kind(reading: Redeal) -> dict[EventKind, Fraction]:
    weights: Counter[str] = Counter()
    for hand in combinations(MAZZO, 3):
        weight = standing_tables(hand, reading)
        weights["all"] += weight
        for kind, test in HAND_TESTS.items():
            weights[kind.value] += weight * test(hand)
    return {kind: Fraction(weights[kind.value], weights["all"]) for kind in HAND_TESTS}


def expected(entry: ExactEvent, reading: Redeal) -> Fraction:
    kind = entry.key.kind
    if kind is EventKind.A_MONTE:
        assert entry.key.reading is not None
        return tables_by_kind()[("a-monte", entry.key.reading)]
    if kind in TABLE_TESTS:
        return tables_by_kind()[(kind.value, reading)]
    return hands_by_kind(reading)[kind]


# ---- the numbers -----------------------------------------------------------------------------


def _one_option_changed(base: Ruleset) -> list[Ruleset]:
    """`base` with each option set, one at a time, to each of its other values."""
    others: list[Ruleset] = []
    for field in fields(Ruleset):
        current = getattr(base, field.name)
        values: list[Any] = (list(type(current)) if isinstance(current, Enum)
                                else [6, 7] if field.name == "piccola_fino_al" else [10, 11])
        others += [replace(base, **{field.name: v}) for v in values if v != current]
    return others


RULESETS = [STANDARD, TAVERNA, *_one_option_changed(STANDARD), *_one_option_changed(TAVERNA)]


def _ruleset_id(ruleset: Ruleset) -> str:
    """`standard` or `taverna`, whichever is nearer, and the options that differ from it."""
    ids = ["+".join([name, *(f"{k}={v}" for k, v in ruleset.options().items()
                             if base.options()[k] != v)])
           for name, base in (("standard", STANDARD), ("taverna", TAVERNA))]
    return min(ids, key=len)


@pytest.mark.parametrize("ruleset", RULESETS, ids=_ruleset_id)
def test_every_cirulla_number_equals_the_independent_enumeration(ruleset: Ruleset) -> None:
    entries = exact_probabilities("cirulla", ruleset)
    kinds = [(e.key.kind, e.key.reading, e.key.role) for e in entries]
    assert len(kinds) == len(set(kinds)) == 2 + 6 + 6
    for entry in entries:
        assert entry.probability == expected(entry, ruleset.redeal), entry.name


def test_the_numbers_change_with_the_c1_reading_and_nothing_else() -> None:
    by_reading = {r: {e.name: e.probability for e in exact_probabilities("cirulla",
                                                                         Ruleset(redeal=r))}
                  for r in Redeal}
    for ruleset in RULESETS:
        mine = {e.name: e.probability for e in exact_probabilities("cirulla", ruleset)}
        assert mine == by_reading[ruleset.redeal]
    changed = [name for name in by_reading[Redeal.MAI]
               if len({by_reading[r][name] for r in Redeal}) == 3]
    assert len(changed) == 12    # every number but the two redeals, counted on every attempt


def test_the_catalogue_has_one_entry_per_event_and_c1_reading() -> None:
    entries = catalogue()
    keys = [(e.key, e.applies_to) for e in entries]
    assert len(keys) == len(set(keys)) == 2 + 3 * 12 + 4 + 10
    for entry in entries:
        if entry.key.game == "briscola" or entry.key.kind is EventKind.A_MONTE:
            assert entry.applies_to == ()
            continue
        (option, value), = entry.applies_to
        assert option == "redeal"
        assert entry.probability == expected(entry, Redeal(value))


def test_closed_forms_of_the_table_compositions() -> None:
    tables = comb(40, 4)
    numbers = {e.key.reading: e.probability for e in exact_probabilities("cirulla")
               if e.key.kind is EventKind.A_MONTE}
    assert numbers[Redeal.DUE_ASSI] == Fraction(
        comb(4, 2) * comb(36, 2) + comb(4, 3) * comb(36, 1) + comb(4, 4), tables)
    assert numbers[Redeal.TRE_RE] == Fraction(comb(4, 3) * comb(36, 1) + comb(4, 4), tables)


def _sums(cards: int) -> Counter[int]:
    """[x^cards y^s] of Π_v (1 + x·y^v)^m_v over the 39 cards other than the matta: how many
    sets of `cards` of them add up to s (a generating function, no enumeration of sets)."""
    poly: dict[tuple[int, int], int] = {(0, 0): 1}
    for value in range(1, 11):
        copies = 3 if value == SETTE else 4
        step: dict[tuple[int, int], int] = {}
        for (n, s), ways in poly.items():
            for k in range(min(copies, cards - n) + 1):
                key = (n + k, s + k * value)
                step[key] = step.get(key, 0) + ways * comb(copies, k)
        poly = step
    return Counter({s: ways for (n, s), ways in poly.items() if n == cards})


def test_closed_forms_of_the_dealer_s_accusi_without_redeal() -> None:
    four, three = _sums(4), _sums(3)
    tables = comb(40, 4)
    numbers = {e.key.kind: e.probability for e in exact_probabilities(
        "cirulla", Ruleset(redeal=Redeal.MAI)) if e.key.role is None}
    assert numbers[EventKind.QUINDICI_SENZA_MATTA] == Fraction(four[15], tables)
    assert numbers[EventKind.TRENTA_SENZA_MATTA] == Fraction(four[30], tables)
    # the matta completes 15 (30) when the other three add up to 5..14 (20..29)
    assert numbers[EventKind.QUINDICI_CON_MATTA] == Fraction(
        sum(three[s] for s in range(5, 15)), tables)
    assert numbers[EventKind.TRENTA_CON_MATTA] == Fraction(
        sum(three[s] for s in range(20, 30)), tables)


def test_closed_form_of_the_decino_without_redeal() -> None:
    # three of a rank (10·C(4,3)), or a pair of a rank other than the 7 with the matta (9·C(4,2))
    entries = exact_probabilities("cirulla", Ruleset(redeal=Redeal.MAI))
    decino = {e.probability for e in entries if e.key.kind is EventKind.DECINO}
    assert decino == {Fraction(10 * comb(4, 3) + 9 * comb(4, 2), comb(40, 3))}


def test_the_briscola_card_s_suit_and_rank() -> None:
    entries = exact_probabilities("briscola", BriscolaRules())
    suits = [e.probability for e in entries if e.key.kind is EventKind.SEME]
    ranks = [e.probability for e in entries if e.key.kind is EventKind.CARTA]
    assert suits == [Fraction(10, 40)] * 4
    assert ranks == [Fraction(4, 40)] * 10
    assert exact_probabilities("briscola", BriscolaRules(vinco_subito=True)) == entries


def test_populations_and_descriptions() -> None:
    for entry in catalogue():
        attempts = entry.key.game == "briscola" or entry.key.kind is EventKind.A_MONTE
        assert entry.population is (Population.ATTEMPTS if attempts else Population.STANDING)
        assert entry.describe() and entry.counted_on()
        assert 0 < entry.probability < 1
    names = {e.name for e in catalogue()}
    assert "cirulla.quindici-con-matta" in names and "briscola.seme.denari" in names


def test_a_wrong_game_or_ruleset_is_refused() -> None:
    with pytest.raises(NoExactProbabilities):
        exact_probabilities("tarocchi")
    with pytest.raises(NoExactProbabilities):
        exact_probabilities("cirulla", BriscolaRules())
    with pytest.raises(NoExactProbabilities):
        exact_probabilities("briscola", STANDARD)


# ---- observing dealt smazzate ----------------------------------------------------------------


def di_mano(dealer: int, players: int, direction: Direction) -> int:
    # 000: "partendo dal giocatore alla destra del mazziere"; seat s+1 sits at the right of seat
    # s (domain/seating.py); 002's clockwise deal starts at the dealer's left.
    step = 1 if direction is Direction.COUNTERCLOCKWISE else -1
    return (dealer + step) % players


def independent_happened(entry: ExactEvent, dealt: SmazzataDealt,
                         ruleset: Ruleset) -> bool | None:
    table = tuple(carta(c) for c in dealt.table)
    if entry.key.kind is EventKind.A_MONTE:
        assert entry.key.reading is not None
        return a_monte(table, entry.key.reading)
    if a_monte(table, ruleset.redeal):
        return None
    if entry.key.kind in TABLE_TESTS:
        return table_holds(entry.key.kind, table)
    players = len(dealt.hands)
    seat = (dealt.dealer if entry.key.role is Role.MAZZIERE
            else di_mano(dealt.dealer, players, ruleset.direction))
    return HAND_TESTS[entry.key.kind](tuple(carta(c) for c in dealt.hands[seat]))


@st.composite
def cirulla_deals(draw: st.DrawFn) -> tuple[SmazzataDealt, Ruleset]:
    deck: list[Card] = draw(st.permutations(DECK))
    players = draw(st.sampled_from([2, 4]))
    if draw(st.booleans()):     # the matta among the table cards or the hands more often
        spot = draw(st.integers(0, 3 * players + 3))
        here = deck.index(DECK[16])
        deck[spot], deck[here] = deck[here], deck[spot]
    ruleset = Ruleset(redeal=draw(st.sampled_from(list(Redeal))),
                      direction=draw(st.sampled_from(list(Direction))),
                      decino_tre_assi=draw(st.sampled_from([10, 11])))
    hands = tuple(tuple(deck[3 * s:3 * s + 3]) for s in range(players))
    table = tuple(deck[3 * players:3 * players + 4])
    dealt = SmazzataDealt(number=0, dealer=draw(st.integers(0, players - 1)), attempt=0,
                          seed_commitment=None, hands=hands, table=table,
                          stock=tuple(deck[3 * players + 4:]))
    return dealt, ruleset


@given(cirulla_deals())
def test_the_observation_agrees_with_the_independent_classifier(
        deal: tuple[SmazzataDealt, Ruleset]) -> None:
    dealt, ruleset = deal
    entries = exact_probabilities("cirulla", ruleset)
    mine = [independent_happened(entry, dealt, ruleset) for entry in entries]
    assert list(observe(entries, dealt, ruleset)) == mine, [c.code for c in dealt.table]
    assert [entry.happened(dealt, ruleset) for entry in entries] == mine
    assert set(observe(exact_probabilities("briscola"), dealt, ruleset)) == {None}


@given(st.permutations(DECK), st.sampled_from([2, 4]))
def test_the_briscola_card_is_observed(deck: list[Card], players: int) -> None:
    card = deck[3 * players]
    dealt = SmazzataDealt(number=0, dealer=0, attempt=0, seed_commitment=None,
                          hands=tuple(tuple(deck[3 * s:3 * s + 3]) for s in range(players)),
                          table=(), stock=tuple(deck[3 * players + 1:]), briscola=card)
    value, suit = carta(card)
    seen = {e.name for e in exact_probabilities("briscola") if e.happened(dealt, BriscolaRules())}
    italian = {"d": "denari", "c": "coppe", "b": "bastoni", "s": "spade"}[suit]
    names = ["asso", "due", "tre", "quattro", "cinque", "sei", "sette", "fante", "cavallo", "re"]
    assert seen == {f"briscola.seme.{italian}", f"briscola.carta.{names[value - 1]}"}


def _code(text: str) -> Card:
    return next(c for c in DECK if c.code == text)


def test_worked_tables() -> None:
    # 7c (the matta) + Rd + Rb + 3s: 23 + the matta's 7 makes 30; 5d 4d 3d 3b is 15 without it;
    # Ad Ab 6s 7d is 15 but two aces: a monte under the standard reading, so not counted there.
    cases = {("7c", "Rd", "Rb", "3s"): "cirulla.trenta-con-matta",
             ("5d", "4d", "3d", "3b"): "cirulla.quindici-senza-matta",
             ("Ad", "Ab", "6s", "7d"): None}
    hands = ((_code("2d"), _code("2b"), _code("2s")), (_code("Cd"), _code("Cb"), _code("Fs")))
    for codes, name in cases.items():
        dealt = SmazzataDealt(number=0, dealer=0, attempt=0, seed_commitment=None, hands=hands,
                              table=tuple(_code(c) for c in codes), stock=())
        seen = {e.name for e in exact_probabilities("cirulla") if e.happened(dealt, STANDARD)}
        counted = {e.name for e in exact_probabilities("cirulla")
                   if e.happened(dealt, STANDARD) is not None}
        if name is None:
            assert counted == {"cirulla.a-monte.due-assi", "cirulla.a-monte.tre-re"}
            continue
        # the dealer (seat 0) holds 2-2-2: both a cirulla and a decino; seat 1 neither
        assert seen == {name, name.rsplit("-", 2)[0] if "matta" in name else name,
                        "cirulla.cirulla.mazziere", "cirulla.decino.mazziere",
                        "cirulla.accuso.mazziere"}


def test_unknown_cards_leave_the_deal_out() -> None:
    dealt = SmazzataDealt(number=0, dealer=0, attempt=0, seed_commitment=None,
                          hands=((UNKNOWN,) * 3, DECK[:3]), table=(UNKNOWN, *DECK[3:6]),
                          stock=())
    assert all(e.happened(dealt, STANDARD) is None for e in exact_probabilities("cirulla"))
    known_table = replace(dealt, table=DECK[10:14])
    mazziere = [e for e in exact_probabilities("cirulla") if e.key.role is Role.MAZZIERE]
    assert all(e.happened(known_table, STANDARD) is None for e in mazziere)
    assert all(e.happened(dealt, BriscolaRules()) is None for e in exact_probabilities("briscola"))
