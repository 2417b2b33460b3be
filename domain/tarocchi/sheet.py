"""The arithmetic of the Scheda Punteggio Giocatore (003, "ALLEGATI").

"+: tipi di giochi ... realizzati in positivo e relativo numero; -: tipi di giochi ... subiti
dagli avversari e relativo numero; DIFF. +/-: la differenza tra i due numeri precedenti (col suo
segno); MOLT.: ... x 1 ..., x 2 ..., x 3 ..., x 6 ...; PARZ. MANO = DIFF +/- x MOLT. - e si
indicano a sottrarre eventuali penalità ricevute; TOT.: si riporta la somma del valore appena
riportato nella casella PARZ.MANO con il TOT. riportato nella riga ... precedente".

The legend of the kinds of game is not in 003's text: the codes below are the project's
(docs/rules-interpretations.md, TQ6). Rimatura and Vanto are the "immancabili" of art. 9.4.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from domain.tarocchi.seats import SMAZZATE_PER_TURN
from domain.text import say

Games = tuple[tuple[str, int], ...]
"""A column + or -: (kind of game, count), in the order written."""

KINDS: dict[str, str] = {
    "RIM": "rimatura",
    "VAN": "vanto",
    "RE": "quattro re",
    "ARI": "arie",
    "PIC": "picciotti",
    "PIG": "pigliate",
    "SCO": "scommessa",
    "RIV": "rivanto",
    "ALT": "altro gioco",
}
IMMANCABILI = frozenset({"RIM", "VAN"})
"""003 art. 9.4: "esclusi quelli "immancabili" cioè la Rimatura e il Vanto"."""


class Role(Enum):
    """A player's part in a smazzata (003 art. 4: "chi ha avuto il ruolo di Chiamante ed il
    relativo Compagno, o l'eventuale Solista")."""

    CHIAMANTE = "chiamante"
    COMPAGNO = "compagno"
    AVVERSARIO = "avversario"
    SOLISTA = "solista"


SOLITA_CARDS = (15, 5)
"""A solità declared with 15 cards (after the whole deal) or with 5 (after the first five)."""


class SheetError(ValueError):
    """A sheet entry that cannot be read as one."""


def check_games(games: Games) -> Games:
    for kind, count in games:
        if kind not in KINDS:
            raise SheetError(say("kind of game {kind!r}: expected one of {known}", kind=kind,
                                 known=", ".join(KINDS)))
        if count < 1:
            raise SheetError(say("kind of game {kind}: the count is 1 or more, not {count}",
                                 kind=kind, count=count))
    return games


def total(games: Iterable[tuple[str, int]]) -> int:
    return sum(count for _, count in games)


def extra(games: Iterable[tuple[str, int]]) -> int:
    """The punti partita of the column but Rimatura and Vanto (art. 9.4)."""
    return sum(count for kind, count in games if kind not in IMMANCABILI)


def diff(plus: Games, minus: Games) -> int:
    return total(plus) - total(minus)


def molt(role: Role, solista_cards: int | None) -> int:
    """The multiplier of the allegato for a player of `role`; `solista_cards` is None when
    nobody went solo, else 15 or 5."""
    if solista_cards is None:
        if role is Role.SOLISTA:
            raise SheetError(say("a Solista declared with how many cards, 15 or 5?"))
        return 1
    if role is Role.SOLISTA:
        return 3 if solista_cards == 15 else 6
    return 1 if solista_cards == 15 else 2


def parz(diff_value: int, molt_value: int, penalty: int) -> int:
    """PARZ. MANO = DIFF x MOLT, less the penalties."""
    return diff_value * molt_value - penalty


def line_number(turn: int, smazzata: int) -> int:
    """The line of a player's sheet (one sheet for the whole tournament, art. 4): turn I has
    lines 1-4, turn II 5-8, ..."""
    return (turn - 1) * SMAZZATE_PER_TURN + smazzata


@dataclass(frozen=True, slots=True)
class Roles:
    """The roles of one smazzata at one table, as the Scheda di Tavolo writes them: a Chiamante
    with his Compagno, or a Solista with 15 or 5 cards."""

    caller: int | None = None
    partner: int | None = None
    solista: int | None = None
    solista_cards: int | None = None

    def role_of(self, player: int) -> Role:
        if self.solista is not None:
            return Role.SOLISTA if player == self.solista else Role.AVVERSARIO
        if player == self.caller:
            return Role.CHIAMANTE
        return Role.COMPAGNO if player == self.partner else Role.AVVERSARIO

    def side_of(self, player: int) -> int:
        """0: the side that called or went solo; 1: its opponents."""
        return 0 if self.role_of(player) in (Role.CHIAMANTE, Role.COMPAGNO, Role.SOLISTA) else 1

    def opponents(self, player: int, table: Iterable[int]) -> frozenset[int]:
        side = self.side_of(player)
        return frozenset(p for p in table if p != player and self.side_of(p) != side)

    def molt_of(self, player: int) -> int:
        return molt(self.role_of(player), self.solista_cards)

    def problem(self, table: Iterable[int]) -> str | None:
        """What makes these roles impossible at `table`, or None."""
        seated = set(table)
        named = [p for p in (self.caller, self.partner, self.solista) if p is not None]
        if any(p not in seated for p in named):
            return say("the roles name a player who is not at this table")
        if self.solista is not None:
            if self.caller is not None or self.partner is not None:
                return say("a smazzata has a Solista or a Chiamante with his Compagno, not both")
            if self.solista_cards not in SOLITA_CARDS:
                return say("a solità is declared with 15 or 5 cards, not {cards}",
                           cards=self.solista_cards)
            return None
        if self.caller is None or self.partner is None:
            return say("the roles need a Chiamante and his Compagno, or a Solista")
        if self.caller == self.partner:
            return say("the Chiamante cannot be his own Compagno")
        return None
