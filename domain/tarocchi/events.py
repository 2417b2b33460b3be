"""The facts of a 003 tournament, past tense, each carrying what is needed to re-check it.

Sheets are recorded as written (a transcription is never refused for what it says: the checks
turn it into findings); only what cannot be a sheet at all (an unknown player, a turn that is not
seated, a line written twice) is refused. Never rename a class or a field: stored events are a
schema (docs/events.md).
"""

from __future__ import annotations

from domain.events import Fact
from domain.record.events import RulingSignature
from domain.tarocchi.entrants import Entrant
from domain.tarocchi.seats import TableSeating
from domain.tarocchi.sheet import Games

RECOMPOSITIONS = ("precostituito", "classifica")
"""How the tables of turns II and III are made (art. 3)."""
FINALS = ("precostituito", "fasce")
"""How the tables of the final turn are made (art. 3)."""


class TarocchiTournamentCreated(Fact, frozen=True):
    """A tournament: its places in registration order, the recompositions chosen before it
    starts (art. 3: "Prima dell'inizio del Torneo, l'organizzazione ... stabilirà"), and the
    commitments to the seating seed and to the tie-break seed (docs/tarocchi.md)."""

    name: str
    entrants: tuple[Entrant, ...]
    recomposition: str
    final: str
    seating_commitment: str
    sorteggio_commitment: str


class SeatingDrawn(Fact, frozen=True):
    """The draw of art. 2: the seating seed revealed (hex), the trump each entrant drew and the
    player number it gave, both in registration order."""

    seed: str
    trumps: tuple[int, ...]
    numbers: tuple[int, ...]


class TurnSeated(Fact, frozen=True):
    """The tables of turn `turn` (1-4), how they were made (`basis`: "sorteggio",
    "precostituito", "classifica" or "fasce") and, for the last two, the standings order used."""

    turn: int
    basis: str
    tables: tuple[TableSeating, ...]
    order: tuple[int, ...] = ()


class PlayerLineWritten(Fact, frozen=True):
    """One line of a Scheda Punteggio Giocatore, as written: smazzata `smazzata` (1-4) of turn
    `turn` for player `player`. `validator`: the number of who validated it; `member`: the team
    member who sat; `source`: where it was read ("file:line"), if imported."""

    player: int
    turn: int
    smazzata: int
    plus: Games
    minus: Games
    diff: int
    molt: int
    penalty: int
    parz: int
    tot: int
    role: str | None = None
    validator: int | None = None
    member: str | None = None
    source: str | None = None


class TableLineWritten(Fact, frozen=True):
    """One line ("Mano") of a Scheda di Tavolo, as written: the dealer, the roles (a Chiamante
    and his Compagno, or a Solista with 15 or 5 cards), each player's TOT after the smazzata,
    who compiled it and which opponent validated it."""

    turn: int
    table: str
    smazzata: int
    dealer: int | None
    caller: int | None
    partner: int | None
    solista: int | None
    solista_cards: int | None
    totals: tuple[tuple[int, int], ...]
    compiler: int | None = None
    validator: int | None = None
    source: str | None = None


class PenaltyImposed(Fact, frozen=True):
    """An arbiter's ruling: penalty `code` of the catalogue (domain/tarocchi/penalties.py) against
    `player` in smazzata `smazzata` of turn `turn`, costing `points` punti partita, the smazzata's
    `fate`; `reason` says what happened. `signature`: the arbiter's, as a card game's ruling's
    (projections/store/signatures.py) over this penalty, the tournament and the head it extends;
    None: nobody signed it (a penalty transcribed from paper is signed on the paper)."""

    player: int
    turn: int
    smazzata: int
    code: str
    points: int
    fate: str
    arbiter: str
    reason: str
    signature: RulingSignature | None = None


class SorteggioRevealed(Fact, frozen=True):
    """The tie-break seed (hex), revealed when the director needs the draw of art. 9."""

    seed: str


TarocchiEvent = (TarocchiTournamentCreated | SeatingDrawn | TurnSeated | PlayerLineWritten
                 | TableLineWritten | PenaltyImposed | SorteggioRevealed)
