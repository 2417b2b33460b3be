"""Cirulla, whole (source 000): the match record's adapter and the one Game object of it.

The adapter only translates: the ruleset to and from the options stored in MatchCreated, a
finished smazzata into match_format's SmazzataResult, a cappotto that ends the match at its play
(C11), and a timeout or abandon into domain/penalty.py's settlement (C12). `CIRULLA` is what the
game registry (domain/games.py) holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msgspec import structs

from domain.cards import Card
from domain.cirulla import decide as cirulla_decide
from domain.cirulla.bot import choose_command
from domain.cirulla.dealing import distribute, next_hands
from domain.cirulla.engine import cappotto_made, cut_short, unplayed
from domain.cirulla.forfeit import awarded_points, unawarded_points
from domain.cirulla.formats import FORMATS
from domain.cirulla.match import smazzata_result
from domain.cirulla.ruleset import Ruleset, ruleset_from_dict, ruleset_from_options
from domain.cirulla.scoring import CATEGORIES
from domain.cirulla.state import CirullaState
from domain.events import SmazzataEnded, SmazzataOutcome
from domain.game import DealingParts, DealtCards, Game, GameEngine, Hands, NotationParts
from domain.match_format import MatchFormat, SmazzataResult
from domain.penalty import PenaltyRules
from domain.record import transcription
from domain.record.adapters import SharedFormats, forfeited, in_spareggio, seating_of
from domain.record.games import GameRulesOf, Standing
from domain.seating import Seating


class CirullaRules(SharedFormats):
    """Cirulla for the match record: a GameRulesOf (domain/record/games.py)."""

    name = "cirulla"

    @property
    def engine(self) -> GameEngine[CirullaState, Ruleset]:
        return cirulla_decide.ENGINE

    def ruleset(self, options: Mapping[str, str]) -> Ruleset:
        return ruleset_from_dict(dict(options))

    def options(self, ruleset: Ruleset) -> Mapping[str, str]:
        return ruleset.options()

    def seating(self, ruleset: Ruleset, players: int) -> Seating:
        return seating_of(players, ruleset.direction)

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
        return structs.replace(ended, outcome=SmazzataOutcome(
            last_capture=state.last_capture_side, cappotto=side, cappotto_ends_match=True,
            vinco_subito=None, unplayed=unplayed(state)))

    def may_cut_short(self, match_format: MatchFormat) -> bool:
        return match_format.cappotto_ends_at_once   # what cut_short asks first

    def made_so_far(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                    state: CirullaState) -> tuple[int, int]:
        """C12: the points of the smazzata in progress already awarded (kept by who made
        them); nothing in a spareggio, which adds nothing to the totals."""
        if in_spareggio(match_format, results):
            return (0, 0)
        return awarded_points(state)

    def forfeit(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                state: CirullaState, guilty_side: int,
                adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
        """C12: the points of the smazzata in progress already made count when it is regular
        (a spareggio adds nothing to the totals); its open points go to the opponent. Between
        smazzate `state` is the one before the deal: a whole fresh smazzata is open."""
        return forfeited(self, match_format, results,
                         self.made_so_far(match_format, results, state), guilty_side,
                         unawarded_points(state, guilty_side), adjustment)


RULES: GameRulesOf[CirullaState, Ruleset, MatchFormat, SmazzataResult] = CirullaRules()


def written_ruleset(words: Sequence[str], match_format: MatchFormat) -> Mapping[str, str]:
    """The stored options of a hand record's Ruleset tag (docs/notation.md)."""
    return ruleset_from_options(words).options()


def deal_order(options: Mapping[str, str]) -> tuple[str, str]:
    """C2: the deal order and the direction of play of a match's ruleset options."""
    ruleset = ruleset_from_dict(dict(options))
    return ruleset.deal_order.value, ruleset.direction.value


def deal(deck: tuple[Card, ...], order: str, direction: str, seating: Seating,
         dealer: int) -> DealtCards:
    """C2: the hands, the four table cards and the stock of `deck`; no face-up card."""
    ruleset = ruleset_from_dict({"deal_order": order, "direction": direction})
    hands, table, stock = distribute(deck, ruleset, seating, dealer)
    return hands, table, stock, None


def stock_hands(stock: tuple[Card, ...], seating: Seating, dealer: int) -> tuple[Hands, ...]:
    """The stock dealt round the table in hands of three, one round after another."""
    rounds = []
    while stock:
        hands, stock = next_hands(stock, seating, dealer)
        rounds.append(hands)
    return tuple(rounds)


DEALING = DealingParts(order=deal_order, deal=deal, stock_hands=stock_hands)

NOTATION = NotationParts(
    markers=(("fuori-turno", "turn order"), ("presa-mancata", "C16 presa obbligata"),
             ("presa-sbagliata", "prese (regole a-c)"), ("carta-sbagliata", "hand"),
             ("accuso-mancato", "C8 accuso obbligatorio")),
    ruleset=written_ruleset)

CIRULLA = Game(
    name="cirulla", rules=RULES, formats=FORMATS,
    # 000: "con l'aggiunta di una scopa, fermo restando che la penalità massima è pari a 6 punti"
    penalty=PenaltyRules(cap=6, extra=1),
    transcriber=transcription.CIRULLA, default_format="21pt", categories=CATEGORIES,
    notation=NOTATION, dealing=DEALING, bot=choose_command)
