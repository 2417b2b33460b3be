"""The games' rules for transcribed matches, behind one protocol the record calls.

A transcribed match (provenance `transcribed`) is dealt without a seed, may hold unknown cards and
may carry plays the table accepted against the rules. Each game says how its deal is laid out,
how an event that reveals cards is folded, and how far a play can be checked
(domain/cirulla/transcribed.py, domain/briscola/transcribed.py). A game without a transcriber
(the tests' toy game) cannot be transcribed.
"""

from __future__ import annotations

from typing import Any, Protocol

from domain.briscola import transcribed as briscola
from domain.cards import Card
from domain.cirulla import transcribed as cirulla
from domain.events import AccusoDeclared, PlayEvent, SmazzataDealt
from domain.game import RuleViolation
from domain.seating import Seating
from domain.text import say
from domain.transcript import PlayCheck

Played = tuple[tuple[PlayEvent, ...], PlayCheck, Any, Any]
"""A play's events, what the unseen cards leave open, the game right after its CardPlayed and
the game after all its events (each as `fold` folds it; a SmazzataEnded not folded)."""


class Transcriber(Protocol):
    def deal_event(self, ruleset: Any, seating: Seating, number: int, dealer: int, attempt: int,
                   hands: tuple[tuple[Card, ...], ...], table: tuple[Card, ...],
                   stock: tuple[Card, ...], briscola: Card | None) -> SmazzataDealt: ...

    def redeal(self, ruleset: Any, dealt: SmazzataDealt) -> str | None: ...

    def after_deal(self, ruleset: Any, seating: Seating,
                   dealt: SmazzataDealt) -> tuple[tuple[PlayEvent, ...], PlayCheck]: ...

    def fold(self, game: Any, event: PlayEvent) -> Any: ...

    def judge_play(self, game: Any, seat: int, card: Card, capture: tuple[Card, ...],
                   matta_value: int | None, irregular: bool) -> tuple[PlayCheck, Played | None]:
        """Every rule the play breaks as far as the known cards show, and, unless it breaks
        one and is not `irregular`, what it leads to: one look at the play for both."""
        ...

    def accuso_event(self, game: Any, seat: int, kind: str, cards: tuple[Card, ...],
                     matta_value: int | None) -> AccusoDeclared: ...


class _Cirulla:
    deal_event = staticmethod(cirulla.deal_event)
    redeal = staticmethod(cirulla.redeal)
    after_deal = staticmethod(cirulla.after_deal)
    fold = staticmethod(cirulla.fold)
    judge_play = staticmethod(cirulla.judge_play)
    accuso_event = staticmethod(cirulla.accuso_event)


class _Briscola:
    fold = staticmethod(briscola.fold)
    judge_play = staticmethod(briscola.judge_play)

    @staticmethod
    def deal_event(ruleset: Any, seating: Seating, number: int, dealer: int, attempt: int,
                   hands: tuple[tuple[Card, ...], ...], table: tuple[Card, ...],
                   stock: tuple[Card, ...], card: Card | None) -> SmazzataDealt:
        return briscola.deal_event(seating, number, dealer, attempt, hands, table, stock, card)

    @staticmethod
    def redeal(ruleset: Any, dealt: SmazzataDealt) -> str | None:
        return None   # 004 knows no redeal

    @staticmethod
    def after_deal(ruleset: Any, seating: Seating,
                   dealt: SmazzataDealt) -> tuple[tuple[PlayEvent, ...], PlayCheck]:
        return (), PlayCheck()

    @staticmethod
    def accuso_event(game: Any, seat: int, kind: str, cards: tuple[Card, ...],
                     matta_value: int | None) -> AccusoDeclared:
        raise RuleViolation("accusi", say("Briscola has no accusi"))


CIRULLA: Transcriber = _Cirulla()
BRISCOLA: Transcriber = _Briscola()


def transcriber(game: str) -> Transcriber:
    """The game's transcriber, from the game registry (domain/games.py). A game is registered
    once, so what was found is kept: every transcribed play asks."""
    found = _FOUND.get(game)
    if found is not None:
        return found
    from domain.games import games  # the games hold the transcribers of this module

    found = next((g.transcriber for g in games() if g.name == game), None)
    if found is None:
        raise RuleViolation("provenance", say("a {game} match cannot be transcribed",
                                              game=game))
    _FOUND[game] = found
    return found


_FOUND: dict[str, Transcriber] = {}
