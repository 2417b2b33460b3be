"""What the match record needs of a game: its engine and how its matches are scored and end.

Each game provides a `GameRulesOf[S, R, F, X]` (its package's game.py; the game registry,
domain/games.py, lists them and domain/record/catalog.py's CATALOG holds them): S its
smazzata state, R its ruleset, F its match format, X what the format needs of a finished
smazzata. The record itself knows no game: `set_up` resolves a match's game once, when
MatchCreated is folded, into a `TableSetup` (the rules, the ruleset and the match format parsed
from MatchCreated's stored options, the seating), and the record hands each game back only the
values that game made. `Standing` is the state of the match after the smazzate counted so far.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeAlias, TypeVar

from domain.events import SmazzataEnded, SmazzataOutcome
from domain.game import GameEngine
from domain.seating import Seating

S = TypeVar("S")
R = TypeVar("R")
F = TypeVar("F")
X = TypeVar("X")


@dataclass(frozen=True, slots=True)
class Standing:
    """Match points per side; `over` once the match format says so; `winner` None is a draw."""

    scores: tuple[int, int]
    over: bool
    winner: int | None
    reason: str
    mp: int = 0
    """Once over: the MP difference, winner's points less the loser's (0: drawn)."""
    unit: str = "punti"
    """The unit of `scores`: "punti", or "smazzate" won (a Briscola match of smazzate)."""
    points: tuple[int, int] = (0, 0)
    """The MP basis per side: game or card points of the regular smazzate (MatchSettlement)."""


class GameRulesOf(Protocol[S, R, F, X]):
    """One game for the match record, typed: S state, R ruleset, F match format, X result."""

    name: str

    @property
    def engine(self) -> GameEngine[S, R]: ...

    def ruleset(self, options: Mapping[str, str]) -> R:
        """The ruleset these options describe; ValueError naming the bad option."""
        ...

    def options(self, ruleset: R) -> Mapping[str, str]:
        """Every option of `ruleset` with its value: what MatchCreated records."""
        ...

    def seating(self, ruleset: R, players: int) -> Seating: ...

    def match_format(self, options: Mapping[str, str]) -> F:
        """The match format these options (MatchCreated's) describe; ValueError if none."""
        ...

    def result(self, state: S, ended: SmazzataEnded) -> X:
        """What the match format needs of a finished smazzata (`state` after `ended`)."""
        ...

    def outcome(self, match_format: F, result: X) -> SmazzataOutcome:
        """What read models need of a finished smazzata (SmazzataEnded.outcome)."""
        ...

    def cut_short(self, match_format: F, state: S) -> SmazzataEnded | None:
        """The end of the smazzata right after a play that leaves it at `state`, when the match
        format ends it there before its last play (Cirulla C11: a cappotto with
        `cappotto_ends`), its outcome's `unplayed` cards filled in; None: play goes on."""
        ...

    def may_cut_short(self, match_format: F) -> bool:
        """Whether `cut_short` may end a smazzata under this format (False: it gives None for
        every state, so a run of plays need not ask it after each play)."""
        ...

    def standing(self, match_format: F, results: Sequence[X],
                 adjustment: tuple[int, int]) -> Standing:
        """The standing after the counted smazzate' `results` plus the arbiter's adjustments."""
        ...

    def made_so_far(self, match_format: F, results: Sequence[X], state: S) -> tuple[int, int]:
        """The points of the smazzata in progress at `state` already made, per side, that a
        forfeit keeps in the totals ((0, 0) in a KO spareggio, which adds nothing to them)."""
        ...

    def forfeit(self, match_format: F, results: Sequence[X], state: S, guilty_side: int,
                adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
        """Timeout or abandon by `guilty_side` with the smazzata in progress at `state` (between
        smazzate, the state before the next deal: a whole fresh smazzata is open): the penalty
        points awarded per side and the final standing."""
        ...


GameRules: TypeAlias = GameRulesOf[Any, Any, Any, Any]
"""A game of a catalog, whichever: the record keeps each game's values as that game made them
and hands them back only to it (through its TableSetup), so it never looks inside them."""


@dataclass(frozen=True, slots=True)
class TableSetup(Generic[S, R, F, X]):
    """A match's game resolved once from MatchCreated: what every later step asks of it."""

    rules: GameRulesOf[S, R, F, X]
    ruleset: R
    seating: Seating
    match_format: F

    def initial(self) -> S:
        """The state before a smazzata's deal."""
        return self.rules.engine.initial(self.ruleset, self.seating)

    def result(self, state: S, ended: SmazzataEnded) -> X:
        return self.rules.result(state, ended)

    def outcome(self, result: X) -> SmazzataOutcome:
        return self.rules.outcome(self.match_format, result)

    def cut_short(self, state: S) -> SmazzataEnded | None:
        return self.rules.cut_short(self.match_format, state)

    def standing(self, results: Sequence[X], adjustment: tuple[int, int]) -> Standing:
        return self.rules.standing(self.match_format, results, adjustment)

    def forfeit(self, results: Sequence[X], state: S, guilty_side: int,
                adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
        return self.rules.forfeit(self.match_format, results, state, guilty_side, adjustment)


def set_up(rules: GameRulesOf[S, R, F, X], ruleset: Mapping[str, str],
           match_format: Mapping[str, str], players: int) -> TableSetup[S, R, F, X]:
    """The game of a match from MatchCreated's options; ValueError naming what is wrong."""
    resolved = rules.ruleset(ruleset)
    return TableSetup(rules, resolved, rules.seating(resolved, players),
                      rules.match_format(match_format))
