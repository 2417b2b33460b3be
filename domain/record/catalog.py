"""The games the match record knows: Cirulla and Briscola behind the GameRulesOf protocol.

Each adapter only translates: the ruleset to and from the options stored in MatchCreated, the
match format to and from its options, a finished smazzata into match_format's SmazzataResult,
and a timeout or abandon into domain/penalty.py's settlement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from domain.briscola import engine as briscola_engine
from domain.briscola.match import smazzata_result as briscola_result
from domain.briscola.scoring import unawarded_points as briscola_unawarded
from domain.briscola.state import BriscolaRules, BriscolaState
from domain.cirulla import decide as cirulla_decide
from domain.cirulla.engine import cappotto_made, cut_short, unplayed
from domain.cirulla.forfeit import awarded_points, unawarded_points
from domain.cirulla.match import smazzata_result
from domain.cirulla.ruleset import Ruleset, ruleset_from_dict
from domain.cirulla.state import CirullaState
from domain.events import SmazzataEnded, SmazzataOutcome
from domain.game import GameEngine
from domain.match_format import (
    MatchFormat,
    MatchFormatError,
    MatchKind,
    MatchStatus,
    SmazzataResult,
    match_points,
    match_status,
)
from domain.penalty import Forfeit, forfeit
from domain.record.games import GameRules, GameRulesOf, Standing
from domain.seating import Direction, Seating
from domain.text import say

_FLAGS = ("ko", "cappotto_ends", "vinco_subito", "target_strict",
          "vinco_subito_ends_smazzata_only", "smazzate_pari", "vp", "cappotto_waits_end")
# Flags added after matches were first stored: a stored format without them reads them as false.
_LATER_FLAGS = ("smazzate_pari", "vp", "cappotto_waits_end")


def format_options(fmt: MatchFormat) -> dict[str, str]:
    """Every field of a match format, as MatchCreated stores it."""
    options = {"kind": fmt.kind.value, "length": str(fmt.length)}
    options.update({flag: _yes_no(getattr(fmt, flag)) for flag in _FLAGS})
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
    options = {**{flag: "false" for flag in _LATER_FLAGS}, **options}
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
    flags = {flag: _flag(options[flag], flag) for flag in _FLAGS}
    return MatchFormat(game, kind, length, **flags)


def _yes_no(value: bool) -> str:
    return "true" if value else "false"


def _flag(text: str, name: str) -> bool:
    if text not in ("true", "false"):
        raise MatchFormatError(say("match format option {name}={value!r}: expected true or "
                                   "false", name=name, value=text))
    return text == "true"


def unit_of(fmt: MatchFormat) -> str:
    """The unit of a match's scores: smazzate won in a Briscola match of smazzate (004: "vince
    la partita chi si aggiudica la maggioranza delle smazzate"), otherwise points."""
    if fmt.game == "briscola" and fmt.kind is MatchKind.SMAZZATE:
        return "smazzate"
    return "punti"


def _regular_points(fmt: MatchFormat, results: Sequence[SmazzataResult],
                    status: MatchStatus) -> tuple[int, int]:
    """The MP basis: game points (Cirulla) or card points (Briscola) of the regular smazzate;
    spareggi add nothing ("Parità", docs/rules-interpretations.md). `status` is the match's
    after `results`."""
    if fmt.game == "cirulla":
        return status.totals
    regular = 1 if fmt.kind is MatchKind.POINTS else fmt.length
    counted = [r.points for r in results[:regular]]
    return (sum(p[0] for p in counted), sum(p[1] for p in counted))


def _added(points: tuple[int, int], more: tuple[int, int]) -> tuple[int, int]:
    return (points[0] + more[0], points[1] + more[1])


def _mp(points: tuple[int, int], winner: int | None) -> int:
    return 0 if winner is None else max(0, points[winner] - points[1 - winner])


def _standing(fmt: MatchFormat, results: Sequence[SmazzataResult],
              adjustment: tuple[int, int]) -> Standing:
    status = match_status(fmt, results)
    scores = _added(status.totals, adjustment)
    winner = status.winner
    unit = unit_of(fmt)
    points = _regular_points(fmt, results, status)
    if unit == "punti":
        points = _added(points, adjustment)
    if not status.over:
        return Standing(scores, False, winner, status.reason, 0, unit, points)
    if adjustment == (0, 0):
        return Standing(scores, True, winner, status.reason, match_points(fmt, results), unit,
                        points)
    # An arbiter's adjustment counts like points (or smazzate won): the side ahead after it
    # wins, by MP the difference of the MP basis.
    winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
    return Standing(scores, True, winner, status.reason, _mp(points, winner), unit, points)


def _settled(settlement: Forfeit, fmt: MatchFormat, results: Sequence[SmazzataResult],
             adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
    """A forfeit's standing: the penalty goes to the points (the MP basis); the scores are in
    the format's unit: the points in "punti", the smazzate won so far in "smazzate"."""
    awarded = (settlement.awarded, 0) if settlement.winner == 0 else (0, settlement.awarded)
    points, winner = settlement.final_totals, settlement.winner
    unit = unit_of(fmt)
    scores = points if unit == "punti" else _added(match_status(fmt, results).totals,
                                                    adjustment)
    return awarded, Standing(scores, True, winner, "forfeit", _mp(points, winner), unit, points)


def _in_spareggio(fmt: MatchFormat, results: Sequence[SmazzataResult]) -> bool:
    """The smazzata in progress (or the next one, between smazzate) is a KO spareggio."""
    return match_status(fmt, results).next_tiebreak > 0


class _Formats:
    """What both games do alike with the shared match formats (domain/match_format.py)."""

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
        return _standing(match_format, results, adjustment)


class CirullaRules(_Formats):
    name = "cirulla"

    @property
    def engine(self) -> GameEngine[CirullaState, Ruleset]:
        return cirulla_decide.ENGINE

    def ruleset(self, options: Mapping[str, str]) -> Ruleset:
        return ruleset_from_dict(dict(options))

    def options(self, ruleset: Ruleset) -> Mapping[str, str]:
        return ruleset.options()

    def seating(self, ruleset: Ruleset, players: int) -> Seating:
        return _seating(players, ruleset.direction)

    def result(self, state: CirullaState, ended: SmazzataEnded) -> SmazzataResult:
        return smazzata_result(state)

    def cut_short(self, match_format: MatchFormat, state: CirullaState) -> SmazzataEnded | None:
        """C11: with `cappotto_ends` (not `cappotto_waits_end`) the play that puts the tenth
        denaro in a side's pile ends the smazzata, and the match, there."""
        if not match_format.cappotto_ends_at_once or state.finished:
            return None
        side = cappotto_made(state)
        if side is None:
            return None
        ended = cut_short(state)
        return replace(ended, outcome=SmazzataOutcome(
            last_capture=state.last_capture_side, cappotto=side, cappotto_ends_match=True,
            vinco_subito=None, unplayed=unplayed(state)))

    def may_cut_short(self, match_format: MatchFormat) -> bool:
        return match_format.cappotto_ends_at_once   # what cut_short asks first

    def made_so_far(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                    state: CirullaState) -> tuple[int, int]:
        """C12: the points of the smazzata in progress already awarded (kept by who made
        them); nothing in a spareggio, which adds nothing to the totals."""
        if _in_spareggio(match_format, results):
            return (0, 0)
        return awarded_points(state)

    def forfeit(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                state: CirullaState, guilty_side: int,
                adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
        """C12: the points of the smazzata in progress already made count when it is regular
        (a spareggio adds nothing to the totals); its open points go to the opponent. Between
        smazzate `state` is the one before the deal: a whole fresh smazzata is open."""
        before = _added(self.standing(match_format, results, adjustment).points,
                        self.made_so_far(match_format, results, state))
        unawarded = unawarded_points(state, guilty_side)
        settlement = forfeit(self.name, (max(before[0], 0), max(before[1], 0)), guilty_side,
                             unawarded)
        return _settled(settlement, match_format, results, adjustment)


class BriscolaGame(_Formats):
    name = "briscola"

    @property
    def engine(self) -> GameEngine[BriscolaState, BriscolaRules]:
        return briscola_engine.ENGINE

    def ruleset(self, options: Mapping[str, str]) -> BriscolaRules:
        if set(options) != {"vinco_subito"}:
            raise ValueError(say("Briscola ruleset options {options}: expected exactly "
                                 "['vinco_subito']", options=sorted(options)))
        return BriscolaRules(vinco_subito=_flag(options["vinco_subito"], "vinco_subito"))

    def options(self, ruleset: BriscolaRules) -> Mapping[str, str]:
        return {"vinco_subito": _yes_no(ruleset.vinco_subito)}

    def seating(self, ruleset: BriscolaRules, players: int) -> Seating:
        return _seating(players, Direction.COUNTERCLOCKWISE)

    def result(self, state: BriscolaState, ended: SmazzataEnded) -> SmazzataResult:
        return briscola_result(state)

    def cut_short(self, match_format: MatchFormat, state: BriscolaState) -> SmazzataEnded | None:
        """Vinco subito already ends play at its trick in the engine (B1): nothing to cut."""
        return None

    def may_cut_short(self, match_format: MatchFormat) -> bool:
        return False

    def made_so_far(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                    state: BriscolaState) -> tuple[int, int]:
        """B2: the card points of the smazzata in progress already taken; nothing in a
        spareggio."""
        if _in_spareggio(match_format, results):
            return (0, 0)
        return state.points

    def forfeit(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                state: BriscolaState, guilty_side: int,
                adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
        """B2: the card points not yet taken go to the opponent, at most 20; between smazzate
        `state` is the one before the deal, so all 120 are open."""
        before = _added(self.standing(match_format, results, adjustment).points,
                        self.made_so_far(match_format, results, state))
        settlement = forfeit(self.name, (max(before[0], 0), max(before[1], 0)), guilty_side,
                             briscola_unawarded(state))
        return _settled(settlement, match_format, results, adjustment)


@lru_cache(maxsize=8)
def _seating(players: int, direction: Direction) -> Seating:
    """The table of a match: a handful of them (2 or 4 players, two directions), each built once
    for every match created or folded; a Seating is immutable."""
    return Seating(players, direction)


CIRULLA: GameRulesOf[CirullaState, Ruleset, MatchFormat, SmazzataResult] = CirullaRules()
BRISCOLA: GameRulesOf[BriscolaState, BriscolaRules, MatchFormat, SmazzataResult] = (
    BriscolaGame())
CATALOG: dict[str, GameRules] = {"cirulla": CIRULLA, "briscola": BRISCOLA}
