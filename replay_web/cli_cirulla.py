"""`verbale simulate cirulla`, a match played by the simple bot printed as a readable log, and
`verbale legal cirulla`, the arbiter's quick check of a position."""

from __future__ import annotations

import json
from collections.abc import Iterator

import click

from domain.cards import (
    MATTA,
    Card,
    CardParseError,
    Style,
    check_distinct,
    format_cards,
    parse_item,
    split_cards,
)
from domain.cirulla.bot import choose
from domain.cirulla.captures import legal_plays_on
from domain.cirulla.match import SmazzataPlayed, iter_match
from domain.cirulla.ruleset import Ruleset, RulesetError, option_help, ruleset_from_options
from domain.cirulla.state import Play, notation, taken
from domain.events import (
    AccusoDeclared,
    CardPlayed,
    DealAnnulled,
    HandDealt,
    PlayEvent,
    SmazzataDealt,
    SmazzataEnded,
)
from domain.match_format import MatchFormat, MatchFormatError, match_status
from domain.seating import Seating
from domain.text import excerpt
from replay_web.cli import database_option, legal, simulate
from replay_web.cli_legal import (
    check_hand,
    read_seed,
    reason_text,
    redeal_text,
    refuse_overlap,
    seat_label,
    seats_line,
    seed_line,
    side_label,
    sides_line,
)
from replay_web.i18n import _, translate, translate_error


def parse_ruleset(options: tuple[str, ...]) -> Ruleset:
    try:
        return ruleset_from_options(options)
    except RulesetError as error:
        raise click.BadParameter(translate_error(error), param_hint="--option") from None


_OPTIONS = f"--option name=value: {option_help()}"
"""The Cirulla options and their values, after the help of the commands taking --option."""


@simulate.command("cirulla", epilog=_OPTIONS)
@click.option("--seed", "seed_text", default=None,
              help="Match seed, hexadecimal, at least 128 bits (32 hex digits); when omitted, "
                   "a fresh random seed is used and printed first, so that the match can be "
                   "replayed.")
@click.option("--players", type=click.Choice(["2", "4"]), default="2", show_default=True)
@click.option("--format", "format_text", default="21pt", show_default=True,
              help="7pt 11pt 21pt 31pt 41pt 51pt, or 1..6 smazzate (e.g. 3smazzate).")
@click.option("--option", "options", multiple=True,
              help="Ruleset option name=value, repeatable ('taverna' for all the readings of "
                   "002); the options are listed below.")
@click.option("--ko", is_flag=True, help="KO tie-break smazzate (up to 3 spareggi).")
@click.option("--cappotto", is_flag=True, help="A cappotto ends the match (C11), at the play "
              "that takes the tenth denaro.")
@click.option("--cappotto-waits-end", is_flag=True,
              help="With --cappotto: the match ends when the cappotto's smazzata ends (C11, "
                   "the other reading).")
@click.option("--style", type=click.Choice(["italian", "french"]), default="italian")
@click.option("--store", "into_store", is_flag=True,
              help="Record the match into the event store (the record's own loop) and print "
                   "its id and result instead of the log.")
@database_option
def simulate_cirulla(seed_text: str | None, players: str, format_text: str,
                     options: tuple[str, ...], ko: bool, cappotto: bool,
                     cappotto_waits_end: bool, style: Style, into_store: bool,
                     database: str | None) -> None:
    """Play a Cirulla match with a simple bot and print its log and score breakdowns."""
    seed, fresh = read_seed(seed_text)
    ruleset = parse_ruleset(options)
    try:
        fmt = MatchFormat.parse(format_text, "cirulla", ko=ko, cappotto_ends=cappotto,
                                cappotto_waits_end=cappotto_waits_end)
    except MatchFormatError as error:
        raise click.BadParameter(translate_error(error), param_hint="--format") from None
    if fresh:
        click.echo(seed_line(seed))
    from domain.demo.matches import NAMES, seeded_match  # the simulator, only for simulate

    names = NAMES[:int(players)]
    if into_store:
        from replay_web.cli_store import store_seeded  # the event store, only when asked for
        store_seeded(seeded_match("cirulla", fmt, ruleset, names, seed), database)
        return
    seating = Seating(int(players), ruleset.direction)
    click.echo(_("Cirulla, {players} players — {format}").format(players=players,
                                                                 format=translate(fmt.describe())))
    differences = ruleset.differences()
    click.echo(_("rules: {rules}").format(
        rules=", ".join(f"{k}={v}" for k, v in differences.items()) if differences
        else _("standard (000)")))
    click.echo(seats_line(names))
    if seating.players == 4:
        click.echo(sides_line(seating, names))
    results = []
    for played in iter_match(ruleset, seating, fmt, seed, choose):
        for line in smazzata_log(played, seating, style, names):
            click.echo(line)
        results.append(played.result)
        status = match_status(fmt, results)
        click.echo(_("match total: {first} - {second}").format(first=status.totals[0],
                                                               second=status.totals[1]))
    status = match_status(fmt, results)
    if status.winner is not None:
        click.echo(_("Match won by {side}: {reason}; {first} - {second}").format(
            side=side_label(status.winner, seating, names), reason=reason_text(status.reason),
            first=status.totals[0], second=status.totals[1]))
    else:
        click.echo(_("Match drawn: {reason}; {first} - {second}").format(
            reason=reason_text(status.reason), first=status.totals[0],
            second=status.totals[1]))


def smazzata_log(played: SmazzataPlayed, seating: Seating, style: Style,
                 names: tuple[str, ...] = ()) -> Iterator[str]:
    """A readable log of a smazzata: the deal, every play and capture, accusi, scope, score.
    Seats, sides, smazzate and deal attempts are numbered from 1; `names` by seat, if known."""
    yield ""
    yield _("== Smazzata {number}: mazziere {dealer}, seed {seed} (commitment {commitment}…)"
            ).format(number=played.number + 1, dealer=seat_label(played.dealer, names),
                     seed=played.seed.hex, commitment=played.seed.commitment()[:16])
    for event in played.events:
        line = _event_line(event, seating, style)
        if line:
            yield "   " + line
    width = max(7, *(len(side_label(s, seating)) for s in seating.sides))
    header = "".join(f" {side_label(s, seating):>{width}}" for s in seating.sides)
    score = _("score:")
    yield f"   {score:<15}{header}"
    for category, a, b in played.breakdown.rows:
        yield f"   {category:<15} {a:>{width}} {b:>{width}}"
    totals = played.breakdown.totals
    total = _("total")
    yield f"   {total:<15} {totals[0]:>{width}} {totals[1]:>{width}}"
    if played.breakdown.cappotto_side is not None:
        yield "   " + _("CAPPOTTO by {side}").format(
            side=side_label(played.breakdown.cappotto_side, seating, names))


def _cards(cards: tuple[Card, ...], style: Style) -> str:
    return format_cards(cards, style) or "-"


def _hands(hands: tuple[tuple[Card, ...], ...], style: Style) -> str:
    return "; ".join(f"{seat_label(s)}: {_cards(h, style)}" for s, h in enumerate(hands))


def _event_line(event: PlayEvent, seating: Seating, style: Style) -> str | None:
    if isinstance(event, SmazzataDealt):
        return _("deal (attempt {attempt}): {hands}; table: {table}").format(
            attempt=event.attempt + 1, hands=_hands(event.hands, style),
            table=_cards(event.table, style))
    if isinstance(event, DealAnnulled):
        return _("a monte: {reason}").format(reason=redeal_text(event.reason))
    if isinstance(event, HandDealt):
        return _("new hands from the stock: {hands}").format(hands=_hands(event.hands, style))
    if isinstance(event, AccusoDeclared):
        line = _("{seat} declares {kind} ({cards}): +{points} to {side}").format(
            seat=seat_label(event.seat), kind=event.kind, cards=_cards(event.cards, style),
            points=event.points, side=side_label(seating.side_of(event.seat), seating))
        if event.matta_value is not None:
            line += ", " + _("matta = {value}").format(value=event.matta_value)
        return line
    if isinstance(event, CardPlayed):
        card = event.card.render(style)
        if not event.capture:
            return _("{seat} plays {card} and discards").format(seat=seat_label(event.seat),
                                                                card=card)
        line = _("{seat} plays {card} and takes {cards}").format(
            seat=seat_label(event.seat), card=card, cards=_cards(event.capture, style))
        return line + ("  SCOPA!" if event.scopa else "")
    if isinstance(event, SmazzataEnded) and event.leftover_to is not None:
        return _("the cards left on the table go to {side}").format(
            side=side_label(event.leftover_to, seating))
    return None


def _parse_with_matta(text: str, option: str) -> tuple[tuple[Card, ...], int | None]:
    """Cards; the matta may carry its value as `7c=1` (after an accuso, C14/C18)."""
    cards: list[Card] = []
    matta_value: int | None = None
    items = split_cards(text)
    for position, item in enumerate(items, 1):
        name, sep, value = item.partition("=")
        card = _read_item(name.strip(), position, len(items), option)
        if sep:
            if card is not MATTA:
                raise click.BadParameter(
                    _("{item}: only the matta (7c) takes a value").format(item=excerpt(item)),
                    param_hint=option)
            if not value.strip().isdigit() or not 1 <= int(value) <= 10:
                raise click.BadParameter(
                    _("{item}: the matta's value is a number from 1 to 10").format(
                        item=excerpt(item)), param_hint=option)
            matta_value = int(value)
        cards.append(card)
    try:
        check_distinct(cards, text)
    except CardParseError as error:
        raise click.BadParameter(translate_error(error), param_hint=option) from None
    return tuple(cards), matta_value


def _read_item(item: str, position: int, count: int, option: str) -> Card:
    try:
        return parse_item(item, position, count)
    except CardParseError as error:
        raise click.BadParameter(translate_error(error), param_hint=option) from None


@legal.command("cirulla", epilog=_OPTIONS)
@click.option("--table", "table_text", required=True, help='Table cards, e.g. "4c 7b 2s" or '
              '"sette di denari, re di coppe" (cards in words separated by commas); may be '
              'empty ("").')
@click.option("--hand", "hand_text", required=True, help='Hand cards, 1 to 3, e.g. "4d", '
              '"7c=1 Ad" (the matta with its value) or "asso di spade, re di coppe".')
@click.option("--option", "options", multiple=True,
              help="Ruleset option name=value, repeatable ('taverna' for all the readings of "
                   "002); the options are listed below.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of lines.")
def legal_cirulla(table_text: str, hand_text: str, options: tuple[str, ...],
                  as_json: bool) -> None:
    """Every legal play, one per line: `4d x 4c 7b` for a capture, `4d` for a discard."""
    ruleset = parse_ruleset(options)
    table, table_matta = _parse_with_matta(table_text, "--table")
    hand, hand_matta = _parse_with_matta(hand_text, "--hand")
    check_hand(hand)
    refuse_overlap(table, hand, _("on the table and in the hand"))
    plays = legal_plays_on(table, hand, ruleset, hand_matta or table_matta)
    if as_json:
        click.echo(json.dumps([_play_json(p) for p in plays], ensure_ascii=False))
        return
    for play in plays:
        click.echo(notation(play))


def _play_json(play: Play) -> dict[str, object]:
    return {"card": play[0].code, "capture": [c.code for c in taken(play)],
            "notation": notation(play)}
