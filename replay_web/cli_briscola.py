"""`verbale simulate briscola`: a match played by the simple bot, printed as a readable log."""

from __future__ import annotations

from collections.abc import Iterator

import click

from domain.briscola.bot import choose_command
from domain.briscola.match import BriscolaMatch, play_briscola_match
from domain.briscola.state import BriscolaState
from domain.cards import Card, Style
from domain.events import CardPlayed, CardsDrawn, SmazzataDealt, SmazzataEnded, TrickTaken
from domain.match_driver import PlayedSmazzata
from domain.match_format import MatchFormat, MatchFormatError, missing_vp_column
from domain.record.demo import NAMES, seeded_match
from domain.seating import Seating
from domain.shuffle import Seed, SeedError
from replay_web.cli import simulate
from replay_web.cli_store import DATABASE_HELP, store_seeded


def _seed(ctx: click.Context, param: click.Parameter, value: str) -> Seed:
    try:
        return Seed.from_hex(value)
    except SeedError as error:
        raise click.BadParameter(f"{error} (give at least 32 hex digits)") from None


@simulate.command("briscola")
@click.option("--seed", required=True, callback=_seed,
              help="Match seed, hexadecimal, at least 128 bits.")
@click.option("--players", type=click.Choice(["2", "4"]), default="2", show_default=True,
              help="2 players, or 4 in pairs (partners opposite).")
@click.option("--format", "format_text", default="3smazzate", show_default=True,
              help="'3smazzate' (any odd number; an even one with --pari) or 'punti'.")
@click.option("--vinco-subito", is_flag=True, help="A side reaching 61 at a trick wins at once.")
@click.option("--pari", is_flag=True,
              help="An even number of smazzate (e.g. '2smazzate', 004's '2 smazzate' VP column): "
                   "equal smazzate won is a draw, or spareggi with --ko.")
@click.option("--vp", is_flag=True,
              help="Scored by VP (a tournament): a format with no VP column is refused.")
@click.option("--ko", is_flag=True, help="Knock-out: a level match goes to spareggi.")
@click.option("--style", type=click.Choice(["italian", "french"]), default="italian",
              show_default=True, help="Card notation.")
@click.option("--store", "into_store", is_flag=True,
              help="Record the match into the event store (the record's own loop) and print "
                   "its id and result instead of the log.")
@click.option("--database", default=None, help=DATABASE_HELP)
def simulate_briscola(seed: Seed, players: str, format_text: str, vinco_subito: bool,
                      pari: bool, vp: bool, ko: bool, style: Style, into_store: bool,
                      database: str | None) -> None:
    """Play a Briscola match with the simple bot and print every trick and the result."""
    try:
        fmt = MatchFormat.parse(format_text, "briscola", ko=ko, vinco_subito=vinco_subito,
                                smazzate_pari=pari, vp=vp)
    except MatchFormatError as error:
        raise click.BadParameter(str(error), param_hint="--format") from None
    missing = missing_vp_column(fmt)
    if missing is not None:  # a friendly match may use it; --vp refused it above
        click.echo(f"nota: {missing}", err=True)
    if into_store:
        store_seeded(seeded_match("briscola", fmt, None, NAMES[:int(players)], seed), database)
        return
    match = play_briscola_match(fmt, Seating(int(players)), seed, choose_command)
    for line in match_log(match, style):
        click.echo(line)


def match_log(match: BriscolaMatch, style: Style = "italian") -> Iterator[str]:
    players = match.seating.players
    yield f"Briscola, {players} giocatori — {match.fmt.describe()}"
    yield f"seme della partita (commitment): {match.seed.commitment()}"
    if players == 4:
        yield "lato 0: posti 0 e 2; lato 1: posti 1 e 3 (compagni di fronte)"
    for smazzata in match.smazzate:
        yield ""
        yield from smazzata_log(smazzata, match.seating, style)
    status = match.status
    yield ""
    if status.winner is None:
        yield f"Partita finita in parità ({status.reason}); totali {_pair(status.totals)}"
    else:
        yield (f"Partita vinta dal lato {status.winner} ({status.reason}); totali "
               f"{_pair(status.totals)}")


def smazzata_log(smazzata: PlayedSmazzata[BriscolaState], seating: Seating,
                 style: Style) -> Iterator[str]:
    mano = 0
    plays: list[str] = []
    score = [0, 0]
    for event in smazzata.events:
        if isinstance(event, SmazzataDealt):
            yield (f"== Smazzata {event.number + 1}: mazziere posto {event.dealer}, seme "
                   f"{(event.seed_commitment or 'nessun seme')[:16]}…")
            for seat, hand in enumerate(event.hands):
                yield f"   posto {seat}: {_cards(hand, style)}"
            if event.briscola is not None:
                card = event.briscola
                yield f"   briscola: {_card(card, style)} ({_suit(card, style)})"
        elif isinstance(event, CardPlayed):
            plays.append(f"{event.seat}:{_card(event.card, style)}")
        elif isinstance(event, TrickTaken):
            mano += 1
            score[seating.side_of(event.seat)] += event.points
            yield (f"mano {mano:2}: {' '.join(plays)} -> presa posto {event.seat} "
                   f"(+{event.points}; {score[0]}-{score[1]})")
            plays = []
        elif isinstance(event, CardsDrawn):
            yield "         pesca: " + " ".join(f"{s}:{_card(c, style)}" for s, c in event.draws)
        elif isinstance(event, SmazzataEnded):
            rows = ", ".join(f"{name} {a}-{b}" for name, a, b in event.breakdown)
            yield f"fine smazzata {event.number + 1}: {rows}"


def _card(card: Card, style: Style) -> str:
    return card.render(style)


def _cards(cards: tuple[Card, ...], style: Style) -> str:
    return " ".join(_card(c, style) for c in cards)


def _suit(card: Card, style: Style) -> str:
    return f"{card.suit.symbol} {card.suit.french}" if style == "french" else card.suit.italian


def _pair(values: tuple[int, int]) -> str:
    return f"{values[0]}-{values[1]}"
