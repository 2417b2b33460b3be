"""What `verbale legal ...` and `verbale simulate ...` read and print alike: card lists, hands and
seeds from the command line, and seats and sides named for people.

Reading: a card list is parsed by domain.cards (`parse_cards`, `split_cards`, `parse_item`);
here its errors become a `click.BadParameter` naming the option. Printing: seats and smazzate are
numbered from 1 (the data keeps 0-based numbers), and the two halves of the table are called
"side" ("lato" in Italian) in both games; with 4 players each side is named by its seats.
"""

from __future__ import annotations

import re
import secrets

import click

from domain.cards import Card, CardParseError, check_distinct, parse_item, split_cards
from domain.seating import Seating
from domain.shuffle import MIN_SEED_BYTES, Seed, SeedError
from replay_web.i18n import _, ngettext, translate_error

HAND_SIZE = 3
"""Both games hold at most 3 cards in hand (000, 004)."""

def read_seed(text: str | None) -> tuple[Seed, bool]:
    """The `--seed` given, or a fresh random one (128 bits from `secrets`); whether it is fresh."""
    if text is None:
        return Seed(secrets.token_bytes(MIN_SEED_BYTES)), True
    try:
        return Seed.from_hex(text), False
    except SeedError as error:
        raise click.BadParameter(translate_error(error), param_hint="--seed") from None


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
        raise click.BadParameter(translate_error(error), param_hint=option) from None
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


# ---- words the data stores, for people ---------------------------------------------------------
# A match's ending reason (MatchStatus.reason, kept in the record) and the reason a deal went a
# monte (DealAnnulled.reason) are stored as the domain writes them, in Italian, and must not
# change; they are translated here, at display, each stored word mapped to an English message
# of the catalogue. A word not listed (a newer record) is shown as it is stored.

_SPAREGGIO = re.compile(r"spareggio (\d+)")
_REDEAL = re.compile(r"(\d+) (assi|re) in tavola")


def reason_text(reason: str) -> str:
    """Why a match ended (or stands as it does), from its stored reason."""
    if reason == "in corso":
        # TRANSLATORS: the standing of a match not over yet.
        return _("in progress")
    if reason == "parità":
        # TRANSLATORS: a match drawn: level at the end (Italian "parità").
        return _("level at the end")
    if reason == "target":   # the same words as `verbale matches` (cli_matches.state_words)
        return _("target reached")
    if reason in ("punti", "points"):   # MatchEnded.reason / its settlement's `how`
        return _("points")
    if reason == "smazzate":
        return _("smazzate played")
    if reason == "maggioranza certa":
        # TRANSLATORS: Briscola: the other side can no longer win as many smazzate.
        return _("a majority of smazzate the other side can no longer reach")
    if reason == "ultima presa nel 3° spareggio":
        # TRANSLATORS: 000/004: the side that made the last capture of the 3rd spareggio loses.
        return _("the other side made the last capture of the 3rd spareggio")
    if reason == "timeout":
        return _("timeout")
    if reason == "abandon":
        return _("abandon")
    if reason == "ruling":
        return _("ruling")
    spareggio = _SPAREGGIO.fullmatch(reason)
    if spareggio is not None:
        return _("spareggio {number}").format(number=int(spareggio[1]))
    return reason   # cappotto, vinco subito: game words, the same in both languages


def redeal_text(reason: str) -> str:
    """Why a Cirulla deal went a monte (C1), from the reason its DealAnnulled stores."""
    redeal = _REDEAL.fullmatch(reason)
    if redeal is None:
        return reason
    count = int(redeal[1])
    if redeal[2] == "assi":
        return ngettext("{count} ace on the table", "{count} aces on the table",
                        count).format(count=count)
    return ngettext("{count} king on the table", "{count} kings on the table",
                    count).format(count=count)
