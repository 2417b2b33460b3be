"""`verbale simulate cirulla` and `verbale legal cirulla`."""

from __future__ import annotations

import json

import click

from domain.cards import MATTA, Card, CardParseError, Style, parse_card, parse_cards
from domain.cirulla.bot import choose
from domain.cirulla.captures import legal_plays_on
from domain.cirulla.match import iter_match
from domain.cirulla.ruleset import Ruleset, RulesetError, option_help, ruleset_from_options
from domain.cirulla.state import Play, notation, taken
from domain.match_format import MatchFormat, MatchFormatError, match_status
from domain.record.demo import NAMES, seeded_match
from domain.seating import Seating
from domain.shuffle import Seed, SeedError
from replay_web.cirulla_log import render_smazzata
from replay_web.cli import legal, simulate
from replay_web.cli_store import DATABASE_HELP, store_seeded


def parse_seed(text: str) -> Seed:
    try:
        return Seed.from_hex(text)
    except SeedError as error:
        raise click.BadParameter(str(error), param_hint="--seed") from None


def parse_ruleset(options: tuple[str, ...]) -> Ruleset:
    try:
        return ruleset_from_options(options)
    except RulesetError as error:
        raise click.BadParameter(str(error), param_hint="--option") from None


_OPTION_HELP = f"Ruleset option name=value, repeatable; 'taverna' for all of 002. {option_help()}"


@simulate.command("cirulla")
@click.option("--seed", "seed_text", required=True, help="Match seed, hex, at least 128 bits.")
@click.option("--players", type=click.Choice(["2", "4"]), default="2", show_default=True)
@click.option("--format", "format_text", default="21pt", show_default=True,
              help="7pt 11pt 21pt 31pt 41pt 51pt, or 1..6 smazzate (e.g. 3smazzate).")
@click.option("--option", "options", multiple=True, help=_OPTION_HELP)
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
@click.option("--database", default=None, help=DATABASE_HELP)
def simulate_cirulla(seed_text: str, players: str, format_text: str, options: tuple[str, ...],
                     ko: bool, cappotto: bool, cappotto_waits_end: bool, style: Style,
                     into_store: bool,
                     database: str | None) -> None:
    """Play a Cirulla match with a simple bot and print its log and score breakdowns."""
    seed = parse_seed(seed_text)
    ruleset = parse_ruleset(options)
    try:
        fmt = MatchFormat.parse(format_text, "cirulla", ko=ko, cappotto_ends=cappotto,
                                cappotto_waits_end=cappotto_waits_end)
    except MatchFormatError as error:
        raise click.BadParameter(str(error), param_hint="--format") from None
    if into_store:
        store_seeded(seeded_match("cirulla", fmt, ruleset, NAMES[:int(players)], seed), database)
        return
    seating = Seating(int(players), ruleset.direction)
    click.echo(f"Cirulla, {players} giocatori, {fmt.describe()}")
    differences = ruleset.differences()
    click.echo("Regole: " + (", ".join(f"{k}={v}" for k, v in differences.items())
                             if differences else "standard (000)"))
    results = []
    for played in iter_match(ruleset, seating, fmt, seed, choose):
        for line in render_smazzata(played, seating, style):
            click.echo(line)
        results.append(played.result)
        status = match_status(fmt, results)
        click.echo(f"Totale partita: {status.totals[0]} - {status.totals[1]}")
    status = match_status(fmt, results)
    if status.winner is not None:
        click.echo(f"Vince la linea {status.winner} ({status.reason}), "
                   f"{status.totals[0]} - {status.totals[1]}")
    else:
        click.echo(f"Partita pari ({status.reason}), {status.totals[0]} - {status.totals[1]}")


def _parse_with_matta(text: str) -> tuple[tuple[Card, ...], int | None]:
    """Cards; the matta may carry its value as `7c=1` (after an accuso, C14/C18)."""
    cards: list[Card] = []
    matta_value: int | None = None
    for token in text.replace(",", " ").split():
        name, sep, value = token.partition("=")
        card = parse_card(name)
        if sep:
            if card is not MATTA:
                raise CardParseError(f"{token!r}: only the matta (7c) takes a value")
            if not value.isdigit() or not 1 <= int(value) <= 10:
                raise CardParseError(f"{token!r}: the matta's value is a number from 1 to 10")
            matta_value = int(value)
        cards.append(card)
    parse_cards(" ".join(c.code for c in cards))   # duplicates
    return tuple(cards), matta_value


@legal.command("cirulla")
@click.option("--table", "table_text", required=True, help='Table cards, e.g. "4c 7b 2s"; '
              'may be empty ("").')
@click.option("--hand", "hand_text", required=True, help='Hand cards, e.g. "4d" or "7c=1 Ad".')
@click.option("--option", "options", multiple=True, help=_OPTION_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of lines.")
def legal_cirulla(table_text: str, hand_text: str, options: tuple[str, ...],
                  as_json: bool) -> None:
    """Every legal play, one per line: `4d x 4c 7b` for a capture, `4d` for a discard."""
    ruleset = parse_ruleset(options)
    try:
        table, table_matta = _parse_with_matta(table_text)
        hand, hand_matta = _parse_with_matta(hand_text)
    except CardParseError as error:
        raise click.UsageError(str(error)) from None
    both = set(table) & set(hand)
    if both:
        codes = " ".join(c.code for c in sorted(both))
        raise click.UsageError(f"card {codes} is both on the table and in the hand")
    plays = legal_plays_on(table, hand, ruleset, hand_matta or table_matta)
    if as_json:
        click.echo(json.dumps([_play_json(p) for p in plays], ensure_ascii=False))
        return
    for play in plays:
        click.echo(notation(play))


def _play_json(play: Play) -> dict[str, object]:
    return {"card": play[0].code, "capture": [c.code for c in taken(play)],
            "notation": notation(play)}
