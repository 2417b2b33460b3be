"""Briscola, whole (source 004): the match record's adapter and the one Game object of it.

The adapter only translates: the ruleset (vinco subito) to and from the options stored in
MatchCreated, a finished smazzata into match_format's SmazzataResult, and a timeout or abandon
into domain/penalty.py's settlement (B2). `BRISCOLA` is what the game registry (domain/games.py)
holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.briscola import engine as briscola_engine
from domain.briscola.bot import choose_command
from domain.briscola.formats import FORMATS
from domain.briscola.match import smazzata_result
from domain.briscola.scoring import unawarded_points
from domain.briscola.state import HAND_SIZE, BriscolaRules, BriscolaState
from domain.cards import Card
from domain.dealing import deal_round_robin
from domain.events import SmazzataEnded
from domain.game import DealingParts, DealtCards, Game, GameEngine, Hands, NotationParts
from domain.match_format import BRISCOLA_CARD_POINTS, MatchFormat, SmazzataResult
from domain.penalty import PenaltyRules
from domain.record import transcription
from domain.record.adapters import SharedFormats, flag, forfeited, in_spareggio, seating_of, yes_no
from domain.record.games import GameRulesOf, Standing
from domain.seating import Direction, Seating
from domain.text import say

CATEGORIES = ("punti", "prese", "carte", "vinco_subito")
"""The rows of a Briscola smazzata's breakdown, as a claim names them."""


class BriscolaGame(SharedFormats):
    """Briscola for the match record: a GameRulesOf (domain/record/games.py)."""

    name = "briscola"

    @property
    def engine(self) -> GameEngine[BriscolaState, BriscolaRules]:
        return briscola_engine.ENGINE

    def ruleset(self, options: Mapping[str, str]) -> BriscolaRules:
        if set(options) != {"vinco_subito"}:
            raise ValueError(say("Briscola ruleset options {options}: expected exactly "
                                 "['vinco_subito']", options=sorted(options)))
        return BriscolaRules(vinco_subito=flag(options["vinco_subito"], "vinco_subito"))

    def options(self, ruleset: BriscolaRules) -> Mapping[str, str]:
        return {"vinco_subito": yes_no(ruleset.vinco_subito)}

    def seating(self, ruleset: BriscolaRules, players: int) -> Seating:
        return seating_of(players, Direction.COUNTERCLOCKWISE)

    def result(self, state: BriscolaState, ended: SmazzataEnded) -> SmazzataResult:
        return smazzata_result(state)

    def cut_short(self, match_format: MatchFormat, state: BriscolaState) -> SmazzataEnded | None:
        """Vinco subito already ends play at its trick in the engine (B1): nothing to cut."""
        return None

    def may_cut_short(self, match_format: MatchFormat) -> bool:
        return False

    def made_so_far(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                    state: BriscolaState) -> tuple[int, int]:
        """B2: the card points of the smazzata in progress already taken; nothing in a
        spareggio."""
        if in_spareggio(match_format, results):
            return (0, 0)
        return state.points

    def forfeit(self, match_format: MatchFormat, results: Sequence[SmazzataResult],
                state: BriscolaState, guilty_side: int,
                adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
        """B2: the card points not yet taken go to the opponent, at most 20; between smazzate
        `state` is the one before the deal, so all 120 are open."""
        return forfeited(self, match_format, results,
                         self.made_so_far(match_format, results, state), guilty_side,
                         unawarded_points(state), adjustment)


RULES: GameRulesOf[BriscolaState, BriscolaRules, MatchFormat, SmazzataResult] = BriscolaGame()


def written_ruleset(words: Sequence[str], match_format: MatchFormat) -> Mapping[str, str]:
    """The stored options of a hand record's Ruleset tag (docs/notation.md): vinco subito as
    the Format tag says, unless a `vinco_subito=true|false` word says otherwise."""
    ruleset = {"vinco_subito": "true" if match_format.vinco_subito else "false"}
    for word in words:
        name, _, value = word.partition("=")
        if name.replace("-", "_") != "vinco_subito" or value not in ("true", "false"):
            raise ValueError(say("Briscola ruleset option {option!r}: expected "
                                 "vinco_subito=true or vinco_subito=false", option=word))
        ruleset["vinco_subito"] = value
    return ruleset


DEAL_ORDER = "briscola"
"""Briscola's one deal order: three cards each one at a time, then the face-up card."""

def deal_order(options: Mapping[str, str]) -> tuple[str, str]:
    """Every Briscola match is dealt the same way, play going counterclockwise."""
    return DEAL_ORDER, Direction.COUNTERCLOCKWISE.value


def deal(deck: tuple[Card, ...], order: str, direction: str, seating: Seating,
         dealer: int) -> DealtCards:
    """Three cards each, one at a time from the dealer's right; the next card is the briscola
    turned up, the rest the stock (domain/briscola/engine.py)."""
    hands, rest = deal_round_robin(deck, seating, dealer, HAND_SIZE)
    return hands, (), rest[1:], rest[0]


def stock_hands(stock: tuple[Card, ...], seating: Seating, dealer: int) -> tuple[Hands, ...]:
    """After each trick its winner draws first: play decides who gets each stock card."""
    return ()


DEALING = DealingParts(order=deal_order, deal=deal, stock_hands=stock_hands)

NOTATION = NotationParts(
    markers=(("fuori-turno", "turno"), ("presa-mancata", "giocata"),
             ("presa-sbagliata", "giocata"), ("carta-sbagliata", "carta in mano")),
    ruleset=written_ruleset)

BRISCOLA = Game(
    name="briscola", rules=RULES, formats=FORMATS,
    # 004: "all'avversario fino a un massimo di 20 punti", of the 120 card points of a smazzata
    penalty=PenaltyRules(cap=20, extra=0, most_unawarded=BRISCOLA_CARD_POINTS),
    transcriber=transcription.BRISCOLA, default_format="3smazzate", categories=CATEGORIES,
    notation=NOTATION, dealing=DEALING, bot=choose_command, captures=False)
