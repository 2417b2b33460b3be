"""The reference for the simulation target (issue 24): marcypotter16/Cirulla, the fastest public
Python Cirulla engine, timed beside verbale's in the same run (bench/bench_cirulla.py
`--baseline-dir DIR`).

Its code is public and is never part of this repository: DIR is a directory outside it holding
that engine's modules as published (`Card.py`, `ConsoleGame.py`, `ConsolePlayer.py`, and its one
dependency, more_itertools, importable or in DIR/deps). This module imports them from DIR and
drives them with its own loop, the same as the engine's bot-against-bot game without its prints
and pauses: a shuffled deck, four cards to the table, three to each of two players while the
deck lasts, each player's bot playing a random card of its hand (the engine works out and
applies the capture), and the end-of-smazzata count. verbale's side of the comparison is the
"engine" case of bench_cirulla: 2 players, decks shuffled by `random`, a uniformly random legal
play, the whole of the rules (accusi, matta, redeals, the score breakdown).
"""

from __future__ import annotations

import importlib
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

MODULES = ("Card", "ConsoleGame", "ConsolePlayer")


class OutsideEngine:
    """The outside engine's modules, imported from `directory`."""

    def __init__(self, directory: Path) -> None:
        if not (directory / "ConsolePlayer.py").is_file():
            raise SystemExit(f"--baseline-dir {directory}: no ConsolePlayer.py there (see "
                             "bench/outside_cirulla.py)")
        for path in (directory / "deps", directory):
            if path.is_dir():
                sys.path.insert(0, str(path))
        loaded: dict[str, ModuleType] = {name: importlib.import_module(name) for name in MODULES}
        self.game, self.players = loaded["ConsoleGame"], loaded["ConsolePlayer"]

    def smazzata(self) -> int:
        """One smazzata, bot against bot; the cards left on the table at the end."""
        deck: Any = self.game.Deck()
        deck.shuffle()
        board: Any = self.game.Board()
        bots = [self.players.Bot("P1"), self.players.Bot("P2")]
        board.cards.extend(deck.draw(4))
        while deck.cards:
            for bot in bots:
                bot.draw_cards(deck, 3)
            for _ in range(3):
                for bot in bots:
                    bot.play_card(bot.think(board), board)
        for bot in bots:
            _count(bot)
        return len(board.cards)

    def smazzate_per_second(self, smazzate: int, run: int) -> float:
        random.seed(run)   # the outside engine shuffles and chooses with the module's random
        start = time.perf_counter()
        for _ in range(smazzate):
            self.smazzata()
        return smazzate / (time.perf_counter() - start)


def _count(bot: Any) -> int:
    try:
        return int(bot.evaluate_won_cards_at_endgame())
    except ValueError:   # its primiera refuses a pile without every suit: the count stops there
        return -1
