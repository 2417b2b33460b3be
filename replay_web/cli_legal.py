"""What `verbale legal ...` and `verbale simulate ...` read and print alike: card lists, hands and
seeds from the command line, and seats and sides named for people.

Reading: a card list is parsed by domain.cards (`parse_cards`, `split_cards`, `parse_item`);
here its errors become a `click.BadParameter` naming the option. Printing: seats and smazzate are
numbered from 1 (the data keeps 0-based numbers), and the two halves of the table are called
"side" ("lato" in Italian) in both games; with 4 players each side is named by its seats.
"""

from __future__ import annotations

import secrets

import click

from domain.cards import Card, CardParseError, check_distinct, parse_item, split_cards
from domain.seating import Seating
from domain.shuffle import MIN_SEED_BYTES, Seed, SeedError
from replay_web.i18n import _

HAND_SIZE = 3
"""Both games hold at most 3 cards in hand (000, 004)."""

def read_seed(text: str | None) -> tuple[Seed, bool]:
    """The `--seed` given, or a fresh random one (128 bits from `secrets`); whether it is fresh."""
    if text is None:
        return Seed(secrets.token_bytes(MIN_SEED_BYTES)), True
    try:
        return Seed.from_hex(text), False
    except SeedError as error:
        raise click.BadParameter(str(error), param_hint="--seed") from None


def seed_line(seed: Seed) -> str:
    """The first line of a match played from a fresh seed: how to play it again."""
    return _("match seed: {seed} (fresh, random; --seed {seed} replays this match)").format(
        seed=seed.hex)


def read_cards(text: str, option: str) -> tuple[Card, ...]:
    """The cards of a list option (`--table`, `--trick`, `--hand`), distinct, in order."""
    items = split_cards(text)
    try:
        cards = tuple(parse_item(item, k, len(items)) for k, item in enumerate(items, 1))
        check_distinct(cards, text)
    except CardParseError as error:
        raise click.BadParameter(str(error), param_hint=option) from None
    return cards


def check_hand(hand: tuple[Card, ...], option: str = "--hand") -> tuple[Card, ...]:
    """A hand to query: at least one card, at most three."""
    if not hand:
        raise click.BadParameter(
            _("no card given: the query needs the cards in hand, e.g. {option} \"4d Rc\" or "
              "{option} \"sette di denari, re di coppe\"").format(option=option),
            param_hint=option)
    if len(hand) > HAND_SIZE:
        raise click.BadParameter(
            _("a hand holds at most {most} cards; {count} given: {cards}").format(
                most=HAND_SIZE, count=len(hand), cards=" ".join(c.code for c in hand)),
            param_hint=option)
    return hand


def refuse_overlap(first: tuple[Card, ...], second: tuple[Card, ...], where: str) -> None:
    """A card cannot be in two places: `where` says which (already translated)."""
    both = sorted(set(first) & set(second))
    if both:
        raise click.UsageError(_("card {cards} is both {where}").format(
            cards=" ".join(c.code for c in both), where=where))


# ---- naming seats and sides for people ---------------------------------------------------------

def seat_label(seat: int, names: tuple[str, ...] = ()) -> str:
    """Seat 0 of the data is "seat 1" for people; with the player's name when known."""
    if seat < len(names):
        # TRANSLATORS: "seat" is "posto"; numbered from 1.
        return _("seat {number} ({name})").format(number=seat + 1, name=names[seat])
    return _("seat {number}").format(number=seat + 1)


def side_label(side: int, seating: Seating, names: tuple[str, ...] = ()) -> str:
    """Side 0 of the data is "side 1"; its players' names when known."""
    # TRANSLATORS: "side" is "lato" (never "linea"), in both games; numbered from 1.
    label = _("side {number}").format(number=side + 1)
    who = _names(seating.seats_of(side), names)
    return f"{label} ({who})" if who else label


def sides_line(seating: Seating, names: tuple[str, ...] = ()) -> str:
    """Which seats form each side, at a table of 4 (partners sit opposite)."""
    parts = []
    for side in seating.sides:
        first, second = seating.seats_of(side)
        who = _names((first, second), names)
        parts.append(_("side {number}: seats {first} and {second}").format(
            number=side + 1, first=first + 1, second=second + 1) + (f" ({who})" if who else ""))
    return _("{sides} (partners sit opposite)").format(sides="; ".join(parts))


def seats_line(names: tuple[str, ...]) -> str:
    """The players at their seats, counterclockwise from seat 1."""
    return _("players: {seats}").format(
        seats=", ".join(seat_label(s, names) for s in range(len(names))))


def _names(seats: tuple[int, ...], names: tuple[str, ...]) -> str:
    known = [names[s] for s in seats if s < len(names)]
    if len(known) == 2:
        return _("{first} and {second}").format(first=known[0], second=known[1])
    return known[0] if len(known) == 1 else ""
