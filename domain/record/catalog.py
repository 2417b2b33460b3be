"""The games the match record knows: every registered game's rules (domain/games.py).

`CATALOG` maps each game's name to its GameRulesOf adapter (domain/cirulla/game.py,
domain/briscola/game.py, ...); the match format's options and units are domain/record/adapters.py's,
re-exported here for the callers that read them beside the catalog.
"""

from __future__ import annotations

from domain.games import record_catalog
from domain.record.adapters import format_options, parse_format, unit_of
from domain.record.games import GameRules

CATALOG: dict[str, GameRules] = record_catalog()

__all__ = ["CATALOG", "format_options", "parse_format", "unit_of"]
