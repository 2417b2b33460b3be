"""The demo of a transcribed match: a Cirulla match as a scorer wrote it up, command by command.

The true deal comes from a seeded shuffle; the transcript knows the table and seat 0's hand, but
not seat 1's first hand and 17 of the stock's 30 cards: 20 cards nobody saw. Play follows the
bot on the true cards, except for two plays the table accepted against the rules: a play out of
turn (seat 1 leads the second mano instead of seat 0) and a missed forced capture (a card that
could capture is discarded). A second, fully known transcript of the same match is decided beside
it with the same commands, so the tests know what the unseen cards were. `simulate matches
--store` records it beside the bot matches, so the viewer and the audit have a transcribed record
to show (shuffle unverifiable, two irregularities, unverifiable checks).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from itertools import count

from domain.cards import UNKNOWN, Card
from domain.cirulla.bot import choose
from domain.cirulla.captures import legal_plays, plays_for_hand
from domain.cirulla.dealing import distribute, redeal_reason
from domain.cirulla.ruleset import ruleset_from_options
from domain.cirulla.state import CirullaState, taken
from domain.game import PlayCard
from domain.match_format import MatchFormat
from domain.record.catalog import CATALOG, format_options
from domain.record.commands import (
    CreateMatch,
    DealLayout,
    MatchCommand,
    RecordIrregularPlay,
    TranscribeDeal,
)
from domain.record.decide import decide
from domain.record.events import Provenance, TimeControl
from domain.record.match import MatchEvent, MatchState, Phase, evolve, initial
from domain.seating import Seating
from domain.shuffle import Seed, shuffled_deck

START = datetime(2026, 11, 23, 21, 0, tzinfo=UTC)
RULESET = ruleset_from_options(["accuso=facoltativo", "presa_obbligata=mano"])
ARBITER = "Rossi (arbitro)"
SOURCE = "verbale-trascritto.txt"
IMPORTER = "verbale demo"
OUT_OF_TURN_AT = 6      # the first play of the second mano
Recorded = list[tuple[MatchEvent, datetime]]


@dataclass(frozen=True, slots=True)
class Transcript:
    commands: tuple[tuple[MatchCommand, datetime], ...]
    partial: Recorded          # what the scorer's record holds (20 unknown cards)
    known: Recorded            # the same match with every card known
    partial_state: MatchState
    known_state: MatchState
    out_of_turn: int           # the versions of the two irregular plays
    missed_capture: int
    unknown: int


def layouts(seed: Seed) -> tuple[DealLayout, DealLayout]:
    seating = Seating(2, RULESET.direction)
    hands, table, stock = distribute(shuffled_deck(seed, 0), RULESET, seating, 0)
    known = DealLayout(hands=hands, table=table, stock=stock)
    hidden = set(range(0, 30, 2)) | {1, 3}   # 17 of the 30 stock cards
    partial = DealLayout(hands=(hands[0], (UNKNOWN,) * 3), table=table,
                         stock=tuple(UNKNOWN if i in hidden else c for i, c in enumerate(stock)))
    return known, partial


def standing_seed() -> Seed:
    """The first seed whose deal stands (no redeal, no dealer's accuso): a plain first deal."""
    seating = Seating(2, RULESET.direction)
    for n in count(1):
        seed = Seed(n.to_bytes(16, "big"))
        _, table, _ = distribute(shuffled_deck(seed, 0), RULESET, seating, 0)
        if redeal_reason(table, RULESET) is None and sum(c.value for c in table) not in (15, 30):
            return seed
    raise AssertionError("unreachable")


def setup() -> CreateMatch:
    return CreateMatch(game="cirulla", ruleset=RULESET.options(), players=("Anna", "Bruno"),
                       match_format=format_options(MatchFormat.parse("1smazzate", "cirulla")),
                       time_control=TimeControl(per_move=None, bank=None, abandon_after=3600),
                       first_dealer=0,
                       provenance=Provenance("transcribed", source=SOURCE, importer=IMPORTER))


class _Both:
    """The two transcripts, decided side by side with the same commands."""

    def __init__(self) -> None:
        self.states = [initial(CATALOG), initial(CATALOG)]
        self.recorded: tuple[Recorded, Recorded] = ([], [])
        self.commands: list[tuple[MatchCommand, datetime]] = []
        self.at = START

    def act(self, partial: MatchCommand, known: MatchCommand | None = None) -> int:
        """Both decide; returns the version of the first event of the action."""
        self.at += timedelta(seconds=7)
        first = self.states[0].version + 1
        for side, command in enumerate((partial, known or partial)):
            for event in decide(self.states[side], command, self.at):
                self.states[side] = evolve(self.states[side], event, self.at)
                self.recorded[side].append((event, self.at))
        self.commands.append((partial, self.at))
        return first


def _irregular(game: CirullaState, plays: int) -> tuple[PlayCard, str] | None:
    mover = game.to_move
    if plays == OUT_OF_TURN_AT:
        other = 1 - mover
        play = legal_plays(game._replace(to_move=other))[0]
        return PlayCard(other, play[0], taken(play)), "out of turn"
    for card in game.hands[mover]:
        captures = [p for p in plays_for_hand((card,), game) if p[1]]
        if captures and plays > OUT_OF_TURN_AT:
            return PlayCard(mover, card, ()), "missed capture"
    return None


def transcribe() -> Transcript:
    known_layout, partial_layout = layouts(standing_seed())
    both = _Both()
    both.act(setup())
    both.act(TranscribeDeal(partial_layout, dealer=0), TranscribeDeal(known_layout, dealer=0))
    versions: dict[str, int] = {}
    while both.states[1].phase is Phase.PLAY:
        game = both.states[1].game
        assert isinstance(game, CirullaState)
        odd = _irregular(game, game.plays)
        if odd is not None and odd[1] not in versions:
            versions[odd[1]] = both.act(RecordIrregularPlay(odd[0], noted_by=ARBITER))
            continue
        card, capture = choose(game)
        both.act(PlayCard(game.to_move, card, tuple(sorted(capture))))
    unknown = sum(c is UNKNOWN for c in (*partial_layout.hands[1], *partial_layout.stock))
    return Transcript(tuple(both.commands), both.recorded[0], both.recorded[1], both.states[0],
                      both.states[1], versions["out of turn"], versions["missed capture"],
                      unknown)


def with_card(layout: DealLayout, card: Card) -> DealLayout:
    """The layout with its first unknown stock card named `card` (a test of the 40 cards)."""
    stock = list(layout.stock)
    stock[stock.index(UNKNOWN)] = card
    return replace(layout, stock=tuple(stock))
