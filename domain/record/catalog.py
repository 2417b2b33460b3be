"""The games the match record knows: Cirulla and Briscola behind the GameRulesOf protocol.

Each adapter only translates: the ruleset to and from the options stored in MatchCreated, the
match format to and from its options, a finished smazzata into match_format's SmazzataResult,
and a timeout or abandon into domain/penalty.py's settlement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.briscola import engine as briscola_engine
from domain.briscola.match import smazzata_result as briscola_result
from domain.briscola.match import timeout as briscola_timeout
from domain.briscola.state import BriscolaRules, BriscolaState
from domain.cirulla import decide as cirulla_decide
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
    SmazzataResult,
    match_points,
    match_status,
)
from domain.penalty import Forfeit, forfeit
from domain.record.games import GameRules, GameRulesOf, Standing
from domain.seating import Seating

_FLAGS = ("ko", "cappotto_ends", "vinco_subito", "target_strict",
          "vinco_subito_ends_smazzata_only")


def format_options(fmt: MatchFormat) -> dict[str, str]:
    """Every field of a match format, as MatchCreated stores it."""
    options = {"kind": fmt.kind.value, "length": str(fmt.length)}
    options.update({flag: _yes_no(getattr(fmt, flag)) for flag in _FLAGS})
    return options


def parse_format(game: str, options: Mapping[str, str]) -> MatchFormat:
    expected = {"kind", "length", *_FLAGS}
    if set(options) != expected:
        raise MatchFormatError(f"match format options {sorted(options)}: expected exactly "
                               f"{sorted(expected)}")
    try:
        kind = MatchKind(options["kind"])
        length = int(options["length"])
    except ValueError:
        raise MatchFormatError(f"match format {dict(options)}: bad kind or length") from None
    flags = {flag: _flag(options[flag], flag) for flag in _FLAGS}
    return MatchFormat(game, kind, length, **flags)


def _yes_no(value: bool) -> str:
    return "true" if value else "false"


def _flag(text: str, name: str) -> bool:
    if text not in ("true", "false"):
        raise MatchFormatError(f"match format option {name}={text!r}: expected true or false")
    return text == "true"


def _standing(fmt: MatchFormat, results: Sequence[SmazzataResult],
              adjustment: tuple[int, int]) -> Standing:
    status = match_status(fmt, results)
    scores = (status.totals[0] + adjustment[0], status.totals[1] + adjustment[1])
    winner = status.winner
    if not status.over:
        return Standing(scores, False, winner, status.reason)
    if adjustment == (0, 0):
        return Standing(scores, True, winner, status.reason, match_points(fmt, results))
    # An arbiter's adjustment counts like points: the side ahead after it wins, by MP the
    # adjusted difference.
    winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
    return Standing(scores, True, winner, status.reason, abs(scores[0] - scores[1]))


def _settled(settlement: Forfeit) -> tuple[tuple[int, int], Standing]:
    awarded = (settlement.awarded, 0) if settlement.winner == 0 else (0, settlement.awarded)
    totals, winner = settlement.final_totals, settlement.winner
    mp = 0 if winner is None else max(0, totals[winner] - totals[1 - winner])
    return awarded, Standing(totals, True, winner, "forfeit", mp)


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
        return Seating(players, ruleset.direction)

    def result(self, state: CirullaState, ended: SmazzataEnded) -> SmazzataResult:
        return smazzata_result(state)

    def forfeit(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                state: CirullaState | None, guilty_side: int,
                adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
        before = self.standing(match_format, results, adjustment).scores
        unawarded = 0
        if state is not None:
            made = awarded_points(state)
            before = (before[0] + made[0], before[1] + made[1])
            unawarded = unawarded_points(state, guilty_side)
        return _settled(forfeit(self.name, (max(before[0], 0), max(before[1], 0)),
                                guilty_side, unawarded))


class BriscolaGame(_Formats):
    name = "briscola"

    @property
    def engine(self) -> GameEngine[BriscolaState, BriscolaRules]:
        return briscola_engine.ENGINE

    def ruleset(self, options: Mapping[str, str]) -> BriscolaRules:
        if set(options) != {"vinco_subito"}:
            raise ValueError(f"Briscola ruleset options {sorted(options)}: expected exactly "
                             "['vinco_subito']")
        return BriscolaRules(vinco_subito=_flag(options["vinco_subito"], "vinco_subito"))

    def options(self, ruleset: BriscolaRules) -> Mapping[str, str]:
        return {"vinco_subito": _yes_no(ruleset.vinco_subito)}

    def seating(self, ruleset: BriscolaRules, players: int) -> Seating:
        return Seating(players)

    def result(self, state: BriscolaState, ended: SmazzataEnded) -> SmazzataResult:
        return briscola_result(state)

    def forfeit(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                state: BriscolaState | None, guilty_side: int,
                adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
        if state is not None:
            return _settled(briscola_timeout(match_format, results, state, guilty_side))
        regular = 1 if match_format.kind is MatchKind.POINTS else match_format.length
        counted = [r.points for r in results[:regular]]
        totals = (sum(p[0] for p in counted), sum(p[1] for p in counted))
        return _settled(forfeit(self.name, totals, guilty_side, 0))


CIRULLA: GameRulesOf[CirullaState, Ruleset, MatchFormat, SmazzataResult] = CirullaRules()
BRISCOLA: GameRulesOf[BriscolaState, BriscolaRules, MatchFormat, SmazzataResult] = (
    BriscolaGame())
CATALOG: dict[str, GameRules] = {"cirulla": CIRULLA, "briscola": BRISCOLA}
