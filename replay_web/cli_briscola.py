"""`verbale simulate briscola`, a match played by the simple bot printed as a readable log, and
`verbale legal briscola`, the arbiter's quick check of a position."""

from __future__ import annotations

import json
from collections.abc import Iterator

import click

from domain.briscola.bot import choose_command
from domain.briscola.match import BriscolaMatch, play_briscola_match
from domain.briscola.state import BriscolaState
from domain.briscola.values import card_points, trick_winner
from domain.cards import (
    SUIT_EXPECTED,
    Card,
    CardParseError,
    Style,
    Suit,
    parse_card,
    parse_suit,
)
from domain.events import CardPlayed, CardsDrawn, SmazzataDealt, SmazzataEnded, TrickTaken
from domain.match_driver import PlayedSmazzata
from domain.match_format import MatchFormat, MatchFormatError, missing_vp_column
from domain.seating import Seating
from domain.text import excerpt
from replay_web.cli import database_option, legal, simulate
from replay_web.cli_legal import (
    check_hand,
    read_cards,
    read_seed,
    reason_text,
    refuse_overlap,
    seat_label,
    seats_line,
    seed_line,
    side_label,
    sides_line,
)
from replay_web.i18n import _, ngettext, translate, translate_error


@simulate.command("briscola")
@click.option("--seed", "seed_text", default=None,
              help="Match seed, hexadecimal, at least 128 bits (32 hex digits); when omitted, "
                   "a fresh random seed is used and printed first, so that the match can be "
                   "replayed.")
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
@database_option
def simulate_briscola(seed_text: str | None, players: str, format_text: str,
                      vinco_subito: bool, pari: bool, vp: bool, ko: bool, style: Style,
                      into_store: bool, database: str | None) -> None:
    """Play a Briscola match with the simple bot and print every trick and the result."""
    seed, fresh = read_seed(seed_text)
    try:
        fmt = MatchFormat.parse(format_text, "briscola", ko=ko, vinco_subito=vinco_subito,
                                smazzate_pari=pari, vp=vp)
    except MatchFormatError as error:
        raise click.BadParameter(translate_error(error), param_hint="--format") from None
    if fresh:
        click.echo(seed_line(seed))
    missing = missing_vp_column(fmt)
    if missing is not None:  # a friendly match may use it; --vp refused it above
        click.echo(_("note: {note}").format(note=translate(missing)), err=True)
    from domain.demo.matches import NAMES, seeded_match  # the simulator, only for simulate

    names = NAMES[:int(players)]
    if into_store:
        from replay_web.cli_store import store_seeded  # the event store, only when asked for
        store_seeded(seeded_match("briscola", fmt, None, names, seed), database)
        return
    match = play_briscola_match(fmt, Seating(int(players)), seed, choose_command)
    for line in match_log(match, style, names):
        click.echo(line)


def match_log(match: BriscolaMatch, style: Style = "italian",
              names: tuple[str, ...] = ()) -> Iterator[str]:
    """The log of a match: seats and sides, then every smazzata, then the result. Seats, sides
    and smazzate are numbered from 1; `names` are the players' names by seat, when known."""
    seating = match.seating
    yield _("Briscola, {players} players — {format}").format(
        players=seating.players, format=translate(match.fmt.describe()))
    yield _("commitment of the match seed: {commitment}").format(
        commitment=match.seed.commitment())
    if names:
        yield seats_line(names)
    if seating.players == 4:
        yield sides_line(seating, names)
    for smazzata in match.smazzate:
        yield ""
        yield from smazzata_log(smazzata, seating, style, names)
    status = match.status
    yield ""
    totals = _pair(status.totals)
    if status.winner is None:
        yield _("Match drawn: {reason}; totals {totals}").format(
            reason=reason_text(status.reason), totals=totals)
    else:
        yield _("Match won by {side}: {reason}; totals {totals}").format(
            side=side_label(status.winner, seating, names), reason=reason_text(status.reason),
            totals=totals)


def smazzata_log(smazzata: PlayedSmazzata[BriscolaState], seating: Seating,
                 style: Style, names: tuple[str, ...] = ()) -> Iterator[str]:
    mano = 0
    plays: list[str] = []
    score = [0, 0]
    for event in smazzata.events:
        if isinstance(event, SmazzataDealt):
            commitment = (_("commitment {commitment}…").format(
                commitment=event.seed_commitment[:16]) if event.seed_commitment
                else _("no seed (transcribed)"))
            yield _("== Smazzata {number}: mazziere {dealer}, {commitment}").format(
                number=event.number + 1, dealer=seat_label(event.dealer, names),
                commitment=commitment)
            for seat, hand in enumerate(event.hands):
                yield f"   {seat_label(seat, names)}: {_cards(hand, style)}"
            if event.briscola is not None:
                card = event.briscola
                yield f"   briscola: {_card(card, style)} ({_suit(card, style)})"
        elif isinstance(event, CardPlayed):
            plays.append(f"{event.seat + 1}:{_card(event.card, style)}")
        elif isinstance(event, TrickTaken):
            mano += 1
            score[seating.side_of(event.seat)] += event.points
            yield _("mano {mano:2}: {plays} -> taken by {seat} (+{points}; {score})").format(
                mano=mano, plays=" ".join(plays), seat=seat_label(event.seat),
                points=event.points, score=_pair((score[0], score[1])))
            plays = []
        elif isinstance(event, CardsDrawn):
            yield "         " + _("draws: {draws}").format(
                draws=" ".join(f"{s + 1}:{_card(c, style)}" for s, c in event.draws))
        elif isinstance(event, SmazzataEnded):
            rows = ", ".join(f"{breakdown_name(name)} {a}-{b}" for name, a, b in event.breakdown)
            yield _("end of smazzata {number}: {rows}").format(number=event.number + 1,
                                                               rows=rows)


def breakdown_name(name: str) -> str:
    """A row of a Briscola breakdown (SmazzataEnded.breakdown, stored as the domain names it):
    "punti" and "carte" are counts, shown in the reader's language; "prese" and "vinco subito"
    are game words, the same in both languages (docs/i18n.md)."""
    if name == "punti":
        # TRANSLATORS: the row of a Briscola breakdown counting the card points ("punti").
        return _("card points")
    if name == "carte":
        # TRANSLATORS: the row of a Briscola breakdown counting the cards taken ("carte").
        return _("cards")
    return name


def _card(card: Card, style: Style) -> str:
    return card.render(style)


def _cards(cards: tuple[Card, ...], style: Style) -> str:
    return " ".join(_card(c, style) for c in cards)


def _suit(card: Card, style: Style) -> str:
    return f"{card.suit.symbol} {card.suit.french}" if style == "french" else card.suit.italian


def _pair(values: tuple[int, int]) -> str:
    return f"{values[0]}-{values[1]}"


# ---- legal briscola ----------------------------------------------------------------------------

@legal.command("briscola")
@click.option("--briscola", "briscola_text", required=True,
              help="The briscola: its suit (d, denari, ♦, ...) or the face-up card (e.g. 7d, "
                   "\"sette di denari\").")
@click.option("--trick", "trick_text", default="", show_default=False,
              help='Cards already played in this mano, in order, the lead first, e.g. "Ac 3c" '
                   '(default: none, the hand leads).')
@click.option("--hand", "hand_text", required=True,
              help='Cards in hand, 1 to 3, e.g. "Rc 2d 5s" or "re di coppe, asso di spade".')
@click.option("--players", type=click.Choice(["2", "4"]), default="2", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of lines.")
def legal_briscola(briscola_text: str, trick_text: str, hand_text: str, players: str,
                   as_json: bool) -> None:
    """Every legal play, one per line: in Briscola every card in hand (004: "non vi è mai
    l'obbligo a giocare una carta"), each with whether it would take the trick as it stands and
    the card points in the trick with it."""
    briscola = _briscola_suit(briscola_text)
    trick = read_cards(trick_text, "--trick")
    hand = check_hand(read_cards(hand_text, "--hand"))
    refuse_overlap(trick, hand, _("in the trick and in the hand"))
    if len(trick) >= int(players):
        raise click.BadParameter(
            ngettext("with {players} players at most {most} card is played before the last "
                     "play; {count} given", "with {players} players at most {most} cards are "
                     "played before the last play; {count} given", int(players) - 1).format(
                players=players, most=int(players) - 1, count=len(trick)),
            param_hint="--trick")
    plays = [_trick_with(trick, card, briscola) for card in hand]
    if as_json:
        click.echo(json.dumps([{"card": card.code, "notation": card.code,
                                "takes": position == len(trick),
                                "taking": taking.code, "points": points}
                               for card, position, taking, points in plays],
                              ensure_ascii=False))
        return
    click.echo(_("briscola {suit}; every card in hand may be played (004: \"non vi è mai "
                 "l'obbligo a giocare una carta\")").format(suit=briscola.italian))
    for card, position, taking, points in plays:
        click.echo(_play_line(card, position, taking, points, len(trick), int(players)))


def _briscola_suit(text: str) -> Suit:
    try:
        return parse_suit(text)
    except CardParseError:
        pass
    try:
        return parse_card(text).suit
    except CardParseError:
        raise click.BadParameter(
            _("{text} is neither a suit nor a card: expected {suits}, or a card such as 7d or "
              "\"sette di denari\"").format(text=excerpt(text), suits=translate(SUIT_EXPECTED)),
            param_hint="--briscola") from None


def _trick_with(trick: tuple[Card, ...], card: Card,
                briscola: Suit) -> tuple[Card, int, Card, int]:
    """The card, the position of the card taking the trick with it, that card, the points."""
    cards = (*trick, card)
    position = trick_winner(cards, briscola)
    return card, position, cards[position], card_points(cards)


def _play_line(card: Card, position: int, taking: Card, points: int, played: int,
               players: int) -> str:
    last = played == players - 1
    if played == 0:
        outcome = _("leads")
    elif position == played:
        outcome = _("takes the trick") if last else _("takes the trick so far")
    elif players == 4 and position == played - 2:
        outcome = (_("the partner's {card} takes the trick") if last
                   else _("the partner's {card} takes the trick so far")).format(card=taking.code)
    else:
        outcome = (_("{card} takes the trick") if last
                   else _("{card} takes the trick so far")).format(card=taking.code)
    return _("{card}: {outcome}; {points} points in the trick").format(
        card=card.code, outcome=outcome, points=points)
