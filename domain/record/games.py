"""What the match record needs of a game: its engine and how its matches are scored and end.

Each game provides a `GameRules` (domain/record/catalog.py lists them); the record itself knows
no game. `Standing` is the state of the match after the smazzate counted so far.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from domain.events import SmazzataEnded
from domain.game import GameEngine
from domain.seating import Seating


@dataclass(frozen=True, slots=True)
class Standing:
    """Match points per side; `over` once the match format says so; `winner` None is a draw."""

    scores: tuple[int, int]
    over: bool
    winner: int | None
    reason: str
    mp: int = 0
    """Once over: the MP difference, winner's points less the loser's (0: drawn)."""


class GameRules(Protocol):
    name: str

    @property
    def engine(self) -> GameEngine[Any, Any]: ...

    def ruleset(self, options: Mapping[str, str]) -> object:
        """The ruleset these options describe; ValueError naming the bad option."""
        ...

    def options(self, ruleset: object) -> Mapping[str, str]:
        """Every option of `ruleset` with its value: what MatchCreated records."""
        ...

    def seating(self, ruleset: object, players: int) -> Seating: ...

    def check_format(self, options: Mapping[str, str]) -> None:
        """ValueError when these match-format options are not a format of this game."""
        ...

    def result(self, state: object, ended: SmazzataEnded) -> object:
        """What the match format needs of a finished smazzata (`state` after `ended`)."""
        ...

    def standing(self, match_format: Mapping[str, str], results: Sequence[object],
                 adjustment: tuple[int, int]) -> Standing:
        """The standing after the counted smazzate' `results` plus the arbiter's adjustments."""
        ...

    def forfeit(self, match_format: Mapping[str, str], results: Sequence[object],
                state: object | None, guilty_side: int,
                adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
        """Timeout or abandon by `guilty_side` with the smazzata in progress at `state` (None
        between smazzate): the penalty points awarded per side and the final standing."""
        ...
