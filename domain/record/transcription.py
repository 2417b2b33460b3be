"""The games' rules for transcribed matches, behind one protocol the record calls.

A transcribed match (provenance `transcribed`) is dealt without a seed, may hold unknown cards and
may carry plays the table accepted against the rules. Each game says how its deal is laid out,
how an event that reveals cards is folded, and how far a play can be checked
(domain/cirulla/transcribed.py, domain/briscola/transcribed.py). A game without a transcriber
(the tests' toy game) cannot be transcribed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from domain.briscola import transcribed as briscola
from domain.cards import Card
from domain.cirulla import transcribed as cirulla
from domain.cirulla.plain_run import PlainMove, plain_plays
from domain.events import AccusoDeclared, CardPlayed, PlayEvent, SmazzataDealt
from domain.game import RuleViolation
from domain.seating import Seating
from domain.text import say
from domain.transcript import PlayCheck


class Advanced(Protocol):
    """A play a game's `advance` took: its events, the game right after the CardPlayed, and
    after all of them."""

    @property
    def events(self) -> tuple[PlayEvent, ...]: ...

    @property
    def played(self) -> Any: ...

    @property
    def after(self) -> Any: ...


class Transcriber(Protocol):
    def deal_event(self, ruleset: Any, seating: Seating, number: int, dealer: int, attempt: int,
                   hands: tuple[tuple[Card, ...], ...], table: tuple[Card, ...],
                   stock: tuple[Card, ...], briscola: Card | None) -> SmazzataDealt: ...

    def redeal(self, ruleset: Any, dealt: SmazzataDealt) -> str | None: ...

    def after_deal(self, ruleset: Any, seating: Seating,
                   dealt: SmazzataDealt) -> tuple[tuple[PlayEvent, ...], PlayCheck]: ...

    def fold(self, game: Any, event: PlayEvent) -> Any: ...

    def check_play(self, game: Any, seat: int, card: Card, capture: tuple[Card, ...],
                   matta_value: int | None) -> PlayCheck: ...

    def play_events(self, game: Any, seat: int, card: Card,
                    capture: tuple[Card, ...]) -> tuple[tuple[PlayEvent, ...], PlayCheck]: ...

    def accuso_event(self, game: Any, seat: int, kind: str, cards: tuple[Card, ...],
                     matta_value: int | None) -> AccusoDeclared: ...

    def advance(self, game: Any, seat: int, card: Card, capture: tuple[Card, ...],
                matta_value: int | None) -> Advanced | None: ...

    def last_play(self, game: Any, seat: int, card: Card, capture: tuple[Card, ...],
                  matta_value: int | None) -> tuple[tuple[PlayEvent, ...], Any] | None:
        """The smazzata's last play as `advance` would take it: its events, ending with the
        game's SmazzataEnded, and the game after those before it; None: the slow way."""
        ...

    def plain_plays(self, game: Any, moves: Sequence[PlainMove],
                    start: int) -> tuple[Sequence[CardPlayed], Any]:
        """The plays of `moves` from `start` on that `advance` would take with their
        CardPlayed as their only event, as far as the game takes them at once, and the game
        after them (none: the game as it was)."""
        ...


class _Cirulla:
    deal_event = staticmethod(cirulla.deal_event)
    redeal = staticmethod(cirulla.redeal)
    after_deal = staticmethod(cirulla.after_deal)
    fold = staticmethod(cirulla.fold)
    check_play = staticmethod(cirulla.check_play)
    play_events = staticmethod(cirulla.play_events)
    accuso_event = staticmethod(cirulla.accuso_event)
    advance = staticmethod(cirulla.advance)
    last_play = staticmethod(cirulla.last_play)
    plain_plays = staticmethod(plain_plays)


class _Briscola:
    fold = staticmethod(briscola.fold)
    check_play = staticmethod(briscola.check_play)
    play_events = staticmethod(briscola.play_events)
    advance = staticmethod(briscola.advance)

    @staticmethod
    def last_play(game: Any, seat: int, card: Card, capture: tuple[Card, ...],
                  matta_value: int | None) -> tuple[tuple[PlayEvent, ...], Any] | None:
        return None   # the last trick is taken the slow way

    @staticmethod
    def plain_plays(game: Any, moves: Sequence[PlainMove],
                    start: int) -> tuple[Sequence[CardPlayed], Any]:
        return (), game   # each play taken by `advance`

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
    """The game's transcriber, from the game registry (domain/games.py)."""
    from domain.games import games  # the games hold the transcribers of this module

    found = next((g.transcriber for g in games() if g.name == game), None)
    if found is None:
        raise RuleViolation("provenance", say("a {game} match cannot be transcribed",
                                              game=game))
    return found
