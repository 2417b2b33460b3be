"""What every game's rules engine offers, so the store, viewer and importers treat games alike.

A smazzata is a fold: `deal` gives the opening events (chance as an actor: the deal is recorded,
replay never re-shuffles), `decide` checks a command against the rules and returns the events it
causes (raising RuleViolation, naming the rule, when it is illegal), `decide_folded` returns them
with the state after them, and `evolve` folds one event into the state. `replay(engine, events)`
rebuilds a state from its events. The engine also owns `legal_commands(state)` (what the seat to
move may do) and `observe(state, viewer, visibility, plays)` (what a seat, the public or the
arbiter sees: domain/viewing.py), so no caller moves a card itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import msgspec

from domain.cards import Card
from domain.events import CardPlayed, PlayEvent
from domain.seating import Seating
from domain.shuffle import Seed
from domain.text import say
from domain.viewing import Observation, Viewer, Visibility

if TYPE_CHECKING:   # the modules below import this one
    from domain.match_format import FormatRules, MatchFormat
    from domain.penalty import PenaltyRules
    from domain.record.games import GameRules
    from domain.record.transcription import Transcriber


class RuleViolation(ValueError):
    """A command the rules refuse. `rule` names the rule (e.g. 'C16 forced capture'), a data
    value shown as it is; `message` is built with `say` (domain/text.py)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(say("{message} [{rule}]", message=message, rule=rule))
        self.rule = rule
        self.message = message


class PlayCard(msgspec.Struct, frozen=True):
    """Play `card` from `seat`; Cirulla: `capture` is the table cards taken (empty: discard).
    A Struct, not a dataclass: one is built for every play replayed, at a tenth of the cost."""

    seat: int
    card: Card
    capture: tuple[Card, ...] = ()
    matta_value: int | None = None


class DeclareAccuso(msgspec.Struct, frozen=True):
    """A player's accuso (Cirulla cirulla/decino), with the matta's value if it is used."""

    seat: int
    kind: str
    matta_value: int | None = None


Command = PlayCard | DeclareAccuso

S = TypeVar("S")
R = TypeVar("R", contravariant=True)


class GameEngine(Protocol[S, R]):
    """The rules of one game for one smazzata. R is the game's ruleset type."""

    name: str

    def deal(self, ruleset: R, seating: Seating, dealer: int, number: int,
             seed: Seed) -> tuple[PlayEvent, ...]: ...

    def initial(self, ruleset: R, seating: Seating) -> S: ...

    def decide(self, state: S, command: Command) -> tuple[PlayEvent, ...]: ...

    def decide_folded(self, state: S, command: Command) -> tuple[tuple[PlayEvent, ...], S]:
        """`decide`, and the state after its events: what `replay` of them gives, but the
        state the rules computed to find the events (each play would be folded twice). A
        SmazzataEnded among the events is the last of them."""
        ...

    def evolve(self, state: S, event: PlayEvent) -> S: ...

    def is_finished(self, state: S) -> bool: ...

    def to_move(self, state: S) -> int | None: ...

    def legal_commands(self, state: S) -> tuple[Command, ...]:
        """Every command of the seat to move that `decide` accepts; () when nobody is to move."""
        ...

    def observe(self, state: S, viewer: Viewer, visibility: Visibility,
                plays: Sequence[CardPlayed]) -> Observation:
        """`viewer`'s view of `state`; `plays`: the CardPlayed of its smazzata so far, which
        the state does not keep (the timeline lists them)."""
        ...


def replay(engine: GameEngine[S, R], state: S, events: Iterable[PlayEvent]) -> S:
    for event in events:
        state = engine.evolve(state, event)
    return state


@dataclass(frozen=True, slots=True)
class NotationParts:
    """A game's part of the hand-record notation (docs/notation.md, importers/notation).

    `markers` pairs each play marker (`!presa-mancata`) with the rule it names, for a play the
    known cards cannot show irregular; a rule's marker is the last one naming it. `ruleset`
    gives the options stored in MatchCreated from a Ruleset tag's words and the match's format
    (ValueError, with a `say` message, for words it refuses).
    """

    markers: tuple[tuple[str, str], ...]
    ruleset: Callable[[Sequence[str], MatchFormat], Mapping[str, str]]


Hands = tuple[tuple[Card, ...], ...]
DealtCards = tuple[Hands, tuple[Card, ...], tuple[Card, ...], Card | None]
"""A deal's hands by seat, table cards, stock (top first) and face-up card (None: none)."""


@dataclass(frozen=True, slots=True)
class DealingParts:
    """How a game deals a smazzata, so that a stored deal can be read back into the deck it was
    dealt from (the fairness battery, projections/fairness/deals.py).

    `order` gives the deal order and the direction of play (a Direction's value) of a match's
    stored ruleset options; `deal` deals a deck in that order and direction by the game's own
    dealing functions; `stock_hands` deals a stock round the table as the smazzata goes on,
    each round's hands by seat (empty: its cards are drawn in an order play decides).
    """

    order: Callable[[Mapping[str, str]], tuple[str, str]]
    deal: Callable[[tuple[Card, ...], str, str, Seating, int], DealtCards]
    stock_hands: Callable[[tuple[Card, ...], Seating, int], tuple[Hands, ...]]


@dataclass(frozen=True, slots=True)
class Game:
    """One game, whole: what every part of verbale asks of it, registered once by name in
    domain/games.py. Each game's package builds its own (domain/cirulla/game.py, ...).

    `rules` is the match record's adapter (domain/record/games.py), holding the engine (deal,
    decide, evolve, legal_commands, observe); `formats` the game's part of the match formats
    (domain/match_format.py); `penalty` its part of a forfeit (domain/penalty.py);
    `transcriber` how a hand record of it is folded (None: it cannot be transcribed);
    `default_format` the format a match has when none is named; `categories` the rows of a
    smazzata's breakdown (SmazzataEnded), as a score sheet or a claim names them; `vp_table`
    whether the VP tables (domain/vp_tables.toml) have columns for it; `recorded` whether the
    match record's catalog holds it (a stored match of it needs its options' stored layout,
    projections/store/facts.py); `notation` its part of the hand-record notation (None: it
    cannot be written as one); `dealing` how it deals (None: its deals cannot be read back into
    their decks); `bot` the simulator's player, a command for the seat to move of a smazzata's
    state (None: it cannot be simulated); `captures` whether a play takes cards from the table
    (its capture shown, its scope counted: Cirulla, Scopa) rather than making a trick
    (Briscola).
    """

    name: str
    rules: GameRules
    formats: FormatRules
    penalty: PenaltyRules
    transcriber: Transcriber | None
    default_format: str
    categories: tuple[str, ...]
    vp_table: bool = True
    recorded: bool = True
    notation: NotationParts | None = None
    dealing: DealingParts | None = None
    bot: Callable[[Any], Command] | None = None
    captures: bool = True

    @property
    def engine(self) -> GameEngine[Any, Any]:
        return self.rules.engine
