"""The game registry: one Game object per game (domain/game.py), registered once by name.

Every part of verbale that needs a game's own rules (the match record's catalog, the match
formats, the penalties, the transcription of hand records) asks here by the game's name, so no
module outside a game's package branches on it. The games are listed explicitly below, in the
order they are shown; adding a game is its package (with its `game.py`) and one line in
`_BUILT_IN`. Like OpenSpiel's game registry, `register` refuses a name taken twice.
"""

from __future__ import annotations

from domain.briscola.game import BRISCOLA
from domain.cirulla.game import CIRULLA
from domain.game import Game
from domain.record.games import GameRules
from domain.scopa.game import SCOPA
from domain.text import Said, say


class UnknownGame(ValueError):
    """A game name the registry does not hold; `said` names the known ones."""

    def __init__(self, said: Said) -> None:
        super().__init__(said)
        self.said = said


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add `game` to the registry; ValueError if its name is taken (a game is registered once)."""
    if game.name in _REGISTRY:
        raise ValueError(say("game {game}: registered twice", game=repr(game.name)))
    _REGISTRY[game.name] = game
    return game


def game_named(name: str) -> Game:
    """The registered game called `name`; UnknownGame naming the registered ones."""
    found = _REGISTRY.get(name)
    if found is None:
        raise UnknownGame(say("game {game}: expected one of {games}", game=repr(name),
                              games=", ".join(_REGISTRY)))
    return found


def games() -> tuple[Game, ...]:
    """Every registered game, in registration order."""
    return tuple(_REGISTRY.values())


def recorded_names() -> tuple[str, ...]:
    """The names of the games the match record holds, in registration order: what a command's
    `--game` or a page's game field accepts."""
    return tuple(game.name for game in _REGISTRY.values() if game.recorded)


def record_catalog() -> dict[str, GameRules]:
    """The match record's catalog: each recorded game's rules by name (domain/record)."""
    return {game.name: game.rules for game in _REGISTRY.values() if game.recorded}


_BUILT_IN = (CIRULLA, BRISCOLA, SCOPA)
for _game in _BUILT_IN:
    register(_game)
