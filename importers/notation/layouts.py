"""A written deal as the record takes it: the cards not written filled with `??`, and, when the
smazzata's seed is known, every written card compared with the seed's deal.

People write down what they saw: the table (Cirulla) or the briscola card, often their own hand,
rarely the stock. The record's DealLayout needs all 40 places: a hand not written is three
unknown cards, a stock not written is as many unknown cards as the 40 leave. A card written
twice, a hand of the wrong size or a deal that is not 40 cards is a Problem (an error of the
record); the layout is then mended as little as possible (the second copy unknown, the hand or
stock cut or filled with `??`) so that the rest of the smazzata can still be checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from domain.cards import UNKNOWN, Card
from domain.events import SmazzataDealt
from domain.record.commands import DealLayout
from domain.text import Said, say
from importers.notation.model import Pos, WrittenLayout, WrittenSmazzata

DECK_SIZE = 40
HAND_SIZE = 3


@dataclass(frozen=True, slots=True)
class Problem:
    pos: Pos
    check: str
    message: Said


def filled(written: WrittenLayout, players: int) -> tuple[DealLayout, tuple[Problem, ...]]:
    """The DealLayout of one written attempt, unknown cards as `??`, and what is wrong in it."""
    problems: list[Problem] = []
    hands = _hands(written, players, problems)
    placed = len(written.table) + (written.briscola is not None) + HAND_SIZE * players
    stock = _stock(written, DECK_SIZE - placed, problems)
    table, briscola, hands, stock = _once(written, hands, stock, problems)
    return DealLayout(hands=hands, table=table, stock=stock, briscola=briscola), tuple(problems)


def _hands(written: WrittenLayout, players: int,
           problems: list[Problem]) -> tuple[tuple[Card, ...], ...]:
    rows = list(written.hands) if written.hands is not None else [None] * players
    if len(rows) > players:
        problems.append(Problem(written.pos, "distribuzione", say(
            "{count} hands written for a table of {players}", count=len(rows),
            players=players)))
    rows = (rows + [None] * players)[:players]
    hands: list[tuple[Card, ...]] = []
    for seat, hand in enumerate(rows):
        cards = hand if hand is not None else (UNKNOWN,) * HAND_SIZE
        if len(cards) != HAND_SIZE:
            problems.append(Problem(written.pos, "distribuzione", say(
                "seat {seat}'s hand has {count} cards written, a hand is {size}", seat=seat + 1,
                count=len(cards), size=HAND_SIZE)))
            cards = (*cards, *(UNKNOWN,) * HAND_SIZE)[:HAND_SIZE]
        hands.append(tuple(cards))
    return tuple(hands)


def _stock(written: WrittenLayout, size: int, problems: list[Problem]) -> tuple[Card, ...]:
    if written.stock is None:
        return (UNKNOWN,) * max(size, 0)
    stock = written.stock
    if len(stock) != size:
        problems.append(Problem(written.pos, "40 carte", say(
            "the stock has {count} cards written; with the other cards of the deal it must "
            "have {size} to make 40", count=len(stock), size=size)))
        stock = (*stock, *(UNKNOWN,) * size)[:max(size, 0)]
    return stock


def _once(written: WrittenLayout, hands: tuple[tuple[Card, ...], ...], stock: tuple[Card, ...],
          problems: list[Problem]) -> tuple[tuple[Card, ...], Card | None,
                                            tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Each known card in one place only: a second copy becomes unknown (the face-up cards,
    table and briscola, keep theirs: they are the ones everybody saw)."""
    seen: dict[Card, Said] = {}

    def keep(card: Card, where: Said, face_up: bool = False) -> Card:
        first = seen.get(card)
        if card is UNKNOWN or first is None:
            seen.setdefault(card, where)
            return card
        problems.append(Problem(written.pos, "40 carte", say(
            "{card} is written twice: in {first} and in {second}", card=card.code,
            first=first, second=where)))
        return card if face_up else UNKNOWN

    table = tuple(keep(c, say("the table"), face_up=True) for c in written.table)
    briscola = written.briscola
    if briscola is not None:
        briscola = keep(briscola, say("the briscola card"), face_up=True)
    kept_hands = tuple(tuple(keep(c, say("seat {seat}'s hand", seat=seat + 1)) for c in hand)
                       for seat, hand in enumerate(hands))
    kept_stock = tuple(keep(c, say("the stock")) for c in stock)
    return table, briscola, kept_hands, kept_stock


def seed_problems(written: Sequence[WrittenLayout], dealt: Sequence[SmazzataDealt],
                  at: Pos) -> tuple[Problem, ...]:
    """Every written card the seed's deal disagrees with, attempt by attempt (the seed fixes
    the redeals too: docs/shuffle.md section 8)."""
    problems: list[Problem] = []
    if len(written) != len(dealt):
        problems.append(Problem(at, "seed", say(
            "the seed deals {dealt} attempts (the last one stands), the record writes {written}",
            dealt=len(dealt), written=len(written))))
    for number, (mine, theirs) in enumerate(zip(written, dealt, strict=False), start=1):
        problems.extend(_attempt_problems(mine, theirs, number))
    return tuple(problems)


def _attempt_problems(mine: WrittenLayout, theirs: SmazzataDealt,
                      attempt: int) -> list[Problem]:
    found: list[Problem] = []

    def differ(place: Callable[[], Said], cards: Sequence[Card],
               seeded: Sequence[Card]) -> None:
        # Every seeded record is checked: the cards as dealt are passed at once, and the place
        # is named only for a finding.
        if cards == seeded:
            return
        wrong = [c.code for c in cards if c is not UNKNOWN and c not in seeded]
        if wrong:
            found.append(Problem(mine.pos, "seed", say(
                "attempt {attempt}, {place}: {cards} written, the seed deals {seeded}",
                attempt=attempt, place=place(), cards=" ".join(wrong),
                seeded=" ".join(c.code for c in seeded))))

    differ(lambda: say("table"), mine.table, theirs.table)
    if mine.briscola is not None:
        differ(lambda: say("briscola card"), (mine.briscola,), tuple(
            c for c in (theirs.briscola,) if c is not None))
    for seat, hand in enumerate(mine.hands or ()):
        if hand is not None and seat < len(theirs.hands):
            differ(_hand_of(seat), hand, theirs.hands[seat])
    found.extend(_stock_problems(mine, theirs, attempt))
    return found


def _hand_of(seat: int) -> Callable[[], Said]:
    return lambda: say("seat {seat}'s hand", seat=seat + 1)


def _stock_problems(mine: WrittenLayout, theirs: SmazzataDealt, attempt: int) -> list[Problem]:
    """The stock's order matters (it is drawn from the top): compared place by place."""
    stock = mine.stock or ()
    if stock == theirs.stock:
        return []
    wrong = [(k, c) for k, c in enumerate(stock) if c is not UNKNOWN
             and (k >= len(theirs.stock) or theirs.stock[k] != c)]
    return [Problem(mine.pos, "seed", say(
        "attempt {attempt}, stock card {place}: {card} written, the seed deals {seeded}",
        attempt=attempt, place=k + 1, card=c.code,
        seeded=theirs.stock[k].code if k < len(theirs.stock) else say("no card")))
        for k, c in wrong]


def dealer_problems(smazzata: WrittenSmazzata, dealer: int) -> tuple[Problem, ...]:
    """The written dealer against the rotation's (a seeded deal is dealt by the rotation's)."""
    if smazzata.dealer is None or smazzata.dealer == dealer:
        return ()
    return (Problem(smazzata.pos, "mazziere", say(
        "smazzata {smazzata} is dealt by seat {dealer} (the rotation from the first dealer), "
        "not seat {written}", smazzata=smazzata.number + 1, dealer=dealer + 1,
        written=smazzata.dealer + 1)),)
