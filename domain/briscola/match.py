"""A Briscola match: the shared match driver with Briscola's rules, result and timeout penalty."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.briscola.engine import ENGINE
from domain.briscola.scoring import last_trick_side, unawarded_points
from domain.briscola.state import BriscolaRules, BriscolaState
from domain.game import Command
from domain.match_driver import PlayedMatch, play_match
from domain.match_format import MatchFormat, MatchKind, SmazzataResult
from domain.penalty import Forfeit, forfeit
from domain.seating import Seating
from domain.shuffle import Seed
from domain.text import say

BriscolaMatch = PlayedMatch[BriscolaState]


def rules_of(fmt: MatchFormat) -> BriscolaRules:
    if fmt.game != ENGINE.name:
        raise ValueError(say("{format} is not a Briscola format", format=fmt.describe()))
    return BriscolaRules(vinco_subito=fmt.vinco_subito)


def smazzata_result(state: BriscolaState) -> SmazzataResult:
    """The finished smazzata as match_format reads it."""
    return SmazzataResult(points=state.points, last_capture_side=last_trick_side(state),
                          vinco_subito_side=state.vinto_subito)


def play_briscola_match(fmt: MatchFormat, seating: Seating, seed: Seed,
                        choose: Callable[[BriscolaState], Command]) -> BriscolaMatch:
    return play_match(ENGINE, rules_of(fmt), fmt, seating, seed, choose, smazzata_result)


def timeout(fmt: MatchFormat, finished: Sequence[SmazzataResult], current: BriscolaState,
            guilty_side: int) -> Forfeit:
    """004 'Penalità in caso di tempo scaduto o abbandono' during the smazzata `current`.

    The standing is in card points over the regular smazzate (the MP basis of match_format),
    the current one included when it is regular; the points still open in it go to the
    opponent, at most 20.
    """
    regular = 1 if fmt.kind is MatchKind.POINTS else fmt.length
    counted = [r.points for r in finished[:regular]]
    if len(finished) < regular:
        counted.append(current.points)
    totals = (sum(p[0] for p in counted), sum(p[1] for p in counted))
    return forfeit(ENGINE.name, totals, guilty_side, unawarded_points(current))
