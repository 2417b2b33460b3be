"""Scopa, whole: the match record's adapter and the one Game object of it
(docs/rules-interpretations.md, "Scopa").

The adapter only translates: the ruleset (no options) to and from MatchCreated's, a finished
smazzata into match_format's SmazzataResult, and a timeout or abandon into domain/penalty.py's
settlement (S7: the scope already made are kept, the four points of carte, denari, settebello
and primiera, still open until the smazzata ends, go to the opponent). Scopa has no transcriber
and no VP table, and is not yet in the match record's catalog (`recorded`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.cards import Card
from domain.dealing import deal_round_robin
from domain.events import SmazzataEnded
from domain.game import DealingParts, DealtCards, Game, GameEngine, Hands
from domain.match_format import MatchFormat, SmazzataResult
from domain.penalty import PenaltyRules
from domain.record.adapters import SharedFormats, forfeited, in_spareggio, seating_of
from domain.record.games import GameRulesOf, Standing
from domain.scopa.bot import choose
from domain.scopa.engine import ENGINE, smazzata_result
from domain.scopa.formats import FORMATS
from domain.scopa.scoring import CATEGORIES
from domain.scopa.state import HAND_SIZE, TABLE_SIZE, ScopaRules, ScopaState
from domain.seating import Direction, Seating
from domain.text import say

OPEN_POINTS = 4
"""S7: carte, denari, settebello and primiera are decided only at the smazzata's end."""


class ScopaGame(SharedFormats):
    """Scopa for the match record: a GameRulesOf (domain/record/games.py)."""

    name = "scopa"

    @property
    def engine(self) -> GameEngine[ScopaState, ScopaRules]:
        return ENGINE

    def ruleset(self, options: Mapping[str, str]) -> ScopaRules:
        if options:
            raise ValueError(say("Scopa ruleset options {options}: expected none",
                                 options=sorted(options)))
        return ScopaRules()

    def options(self, ruleset: ScopaRules) -> Mapping[str, str]:
        return {}

    def seating(self, ruleset: ScopaRules, players: int) -> Seating:
        return seating_of(players, Direction.COUNTERCLOCKWISE)

    def result(self, state: ScopaState, ended: SmazzataEnded) -> SmazzataResult:
        return smazzata_result(state)

    def cut_short(self, match_format: MatchFormat, state: ScopaState) -> SmazzataEnded | None:
        return None

    def may_cut_short(self, match_format: MatchFormat) -> bool:
        return False

    def made_so_far(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                    state: ScopaState) -> tuple[int, int]:
        """S7: the scope of the smazzata in progress; nothing in a spareggio."""
        if in_spareggio(match_format, results) or not state.dealt:
            return (0, 0)
        return state.scope

    def forfeit(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                state: ScopaState, guilty_side: int,
                adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
        return forfeited(self, match_format, results,
                         self.made_so_far(match_format, results, state), guilty_side,
                         OPEN_POINTS, adjustment)


RULES: GameRulesOf[ScopaState, ScopaRules, MatchFormat, SmazzataResult] = ScopaGame()

DEAL_ORDER = "uno-alla-volta"
"""S1's one deal order: three cards each one at a time, then four on the table."""


def deal_order(options: Mapping[str, str]) -> tuple[str, str]:
    """Every Scopa match is dealt the same way, play going counterclockwise."""
    return DEAL_ORDER, Direction.COUNTERCLOCKWISE.value


def deal(deck: tuple[Card, ...], order: str, direction: str, seating: Seating,
         dealer: int) -> DealtCards:
    """S1: three cards each from the dealer's right, four on the table, the rest the stock."""
    hands, rest = deal_round_robin(deck, seating, dealer, HAND_SIZE)
    return hands, rest[:TABLE_SIZE], rest[TABLE_SIZE:], None


def stock_hands(stock: tuple[Card, ...], seating: Seating, dealer: int) -> tuple[Hands, ...]:
    """The stock dealt three cards each whenever the hands are empty, round after round."""
    rounds = []
    while stock:
        hands, stock = deal_round_robin(stock, seating, dealer, HAND_SIZE)
        rounds.append(hands)
    return tuple(rounds)


DEALING = DealingParts(order=deal_order, deal=deal, stock_hands=stock_hands)

SCOPA = Game(name="scopa", rules=RULES, formats=FORMATS,
             penalty=PenaltyRules(cap=OPEN_POINTS), transcriber=None, default_format="11pt",
             categories=CATEGORIES, vp_table=False, bot=choose, dealing=DEALING,
             # not in the match record's catalog until the store has the stored layout of its
             # options (projections/store/facts.py, OPTION_TYPES)
             recorded=False)
