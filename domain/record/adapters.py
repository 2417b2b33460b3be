"""What every game's record adapter (GameRulesOf, domain/record/games.py) does alike.

The match format to and from MatchCreated's options, the standing after the counted smazzate,
a forfeit's standing, the table of a match: each game's adapter (domain/cirulla/game.py,
domain/briscola/game.py, domain/scopa/game.py) builds on these and adds only its own rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from domain.events import SmazzataOutcome
from domain.match_format import (
    MatchFormat,
    MatchFormatError,
    MatchKind,
    SmazzataResult,
    format_rules,
    match_status,
    standing_parts,
)
from domain.penalty import Forfeit, forfeit
from domain.record.games import Standing
from domain.seating import Direction, Seating
from domain.text import say

_FLAGS = ("ko", "cappotto_ends", "vinco_subito", "target_strict",
          "vinco_subito_ends_smazzata_only", "smazzate_pari", "vp", "cappotto_waits_end")
# Flags added after matches were first stored: a stored format without them reads them as false.
_LATER_FLAGS = ("smazzate_pari", "vp", "cappotto_waits_end")


def format_options(fmt: MatchFormat) -> dict[str, str]:
    """Every field of a match format, as MatchCreated stores it."""
    options = {"kind": fmt.kind.value, "length": str(fmt.length)}
    options.update({name: yes_no(getattr(fmt, name)) for name in _FLAGS})
    return options


def parse_format(game: str, options: Mapping[str, str]) -> MatchFormat:
    """The format MatchCreated's options give; MatchFormatError naming what is wrong."""
    items = tuple(options.items())
    try:
        hash((game, items))
    except TypeError:   # a value no stored format has: read as it is, nothing kept
        return _parse_format(game, options)
    return _parsed_format(game, items)


@lru_cache(maxsize=64)
def _parsed_format(game: str, items: tuple[tuple[str, str], ...]) -> MatchFormat:
    """Each distinct format read once: every match created or folded reads its own, from the
    same few option lists; a MatchFormat is immutable (an error is not kept)."""
    return _parse_format(game, dict(items))


def _parse_format(game: str, options: Mapping[str, str]) -> MatchFormat:
    expected = {"kind", "length", *_FLAGS}
    options = {**{name: "false" for name in _LATER_FLAGS}, **options}
    if set(options) != expected:
        raise MatchFormatError(say("match format options {options}: expected exactly "
                                   "{expected}", options=sorted(options),
                                   expected=sorted(expected)))
    try:
        kind = MatchKind(options["kind"])
        length = int(options["length"])
    except ValueError:
        raise MatchFormatError(say("match format {options}: bad kind or length",
                                   options=dict(options))) from None
    flags = {name: flag(options[name], name) for name in _FLAGS}
    return MatchFormat(game, kind, length, **flags)


def yes_no(value: bool) -> str:
    return "true" if value else "false"


def flag(text: str, name: str) -> bool:
    if text not in ("true", "false"):
        raise MatchFormatError(say("match format option {name}={value!r}: expected true or "
                                   "false", name=name, value=text))
    return text == "true"


def unit_of(fmt: MatchFormat) -> str:
    """The unit of a match's scores: smazzate won in a Briscola match of smazzate (004: "vince
    la partita chi si aggiudica la maggioranza delle smazzate"), otherwise points."""
    return format_rules(fmt.game).unit(fmt)


def added(points: tuple[int, int], more: tuple[int, int]) -> tuple[int, int]:
    return (points[0] + more[0], points[1] + more[1])


def _mp(points: tuple[int, int], winner: int | None) -> int:
    return 0 if winner is None else max(0, points[winner] - points[1 - winner])


def standing(fmt: MatchFormat, results: Sequence[SmazzataResult],
              adjustment: tuple[int, int]) -> Standing:
    status, points, mp = standing_parts(fmt, results)   # points: the MP basis
    scores = added(status.totals, adjustment)
    winner = status.winner
    unit = unit_of(fmt)
    if unit == "punti":
        points = added(points, adjustment)
    if not status.over:
        return Standing(scores, False, winner, status.reason, 0, unit, points)
    if adjustment == (0, 0):
        return Standing(scores, True, winner, status.reason, mp, unit, points)
    # An arbiter's adjustment counts like points (or smazzate won): the side ahead after it
    # wins, by MP the difference of the MP basis.
    winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
    return Standing(scores, True, winner, status.reason, _mp(points, winner), unit, points)


def settled(settlement: Forfeit, fmt: MatchFormat, results: Sequence[SmazzataResult],
             adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
    """A forfeit's standing: the penalty goes to the points (the MP basis); the scores are in
    the format's unit: the points in "punti", the smazzate won so far in "smazzate"."""
    awarded = (settlement.awarded, 0) if settlement.winner == 0 else (0, settlement.awarded)
    points, winner = settlement.final_totals, settlement.winner
    unit = unit_of(fmt)
    scores = points if unit == "punti" else added(match_status(fmt, results).totals,
                                                    adjustment)
    return awarded, Standing(scores, True, winner, "forfeit", _mp(points, winner), unit, points)


def in_spareggio(fmt: MatchFormat, results: Sequence[SmazzataResult]) -> bool:
    """The smazzata in progress (or the next one, between smazzate) is a KO spareggio."""
    return match_status(fmt, results).next_tiebreak > 0


class SharedFormats:
    """What every game does alike with the shared match formats (domain/match_format.py)."""

    name: str

    def match_format(self, options: Mapping[str, str]) -> MatchFormat:
        return parse_format(self.name, options)

    def outcome(self, match_format: MatchFormat, result: SmazzataResult) -> SmazzataOutcome:
        cappotto = result.cappotto_side
        return SmazzataOutcome(last_capture=result.last_capture_side, cappotto=cappotto,
                               cappotto_ends_match=match_format.cappotto_ends
                               and cappotto is not None,
                               vinco_subito=result.vinco_subito_side)

    def standing(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                 adjustment: tuple[int, int]) -> Standing:
        return standing(match_format, results, adjustment)


@lru_cache(maxsize=8)
def seating_of(players: int, direction: Direction) -> Seating:
    """The table of a match: a handful of them (2 or 4 players, two directions), each built once
    for every match created or folded; a Seating is immutable."""
    return Seating(players, direction)


def forfeited(rules: SharedFormats, match_format: MatchFormat,
              results: Sequence[SmazzataResult], made: tuple[int, int], guilty_side: int,
              unawarded: int, adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
    """A forfeit by `guilty_side`: the standing's points plus those `made` in the smazzata in
    progress, the `unawarded` ones to the opponent under the game's penalty rules."""
    before = added(rules.standing(match_format, results, adjustment).points, made)
    settlement = forfeit(rules.name, (max(before[0], 0), max(before[1], 0)), guilty_side,
                         unawarded)
    return settled(settlement, match_format, results, adjustment)
