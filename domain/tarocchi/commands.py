"""What can be asked of a 003 tournament; `decide` checks each and returns its events."""

from __future__ import annotations

from dataclasses import dataclass

from domain.record.events import RulingSignature
from domain.shuffle import Seed
from domain.tarocchi.events import PlayerLineWritten, TableLineWritten, TarocchiTournamentCreated


@dataclass(frozen=True, slots=True)
class CreateTarocchiTournament:
    """The tournament as it is to be created: places, recompositions and both commitments."""

    tournament: TarocchiTournamentCreated


@dataclass(frozen=True, slots=True)
class DrawSeating:
    """Reveal the seating seed: the draw of art. 2 and turn I follow from it."""

    seed: Seed


@dataclass(frozen=True, slots=True)
class SeatTurn:
    """Seat turn `turn` (2-4) as the tournament's recomposition says (art. 3)."""

    turn: int


@dataclass(frozen=True, slots=True)
class WritePlayerLine:
    """A line of a player's sheet, as written (recorded as it is; the checks judge it)."""

    written: PlayerLineWritten


@dataclass(frozen=True, slots=True)
class WriteTableLine:
    """A line of a table sheet, as written."""

    written: TableLineWritten


@dataclass(frozen=True, slots=True)
class ImposePenalty:
    """An arbiter's ruling: penalty `code` of the catalogue. `extra`: 8.a's punti partita
    already lost; `important_card`: 8.c/8.d, whether the card shown was a Re, an Aria or the
    Picciotti. The points follow from the catalogue; a Solista pays no 8.c/8.d point.
    `signature`: the arbiter's over the penalty it records (projections/store/signatures.py)."""

    player: int
    turn: int
    smazzata: int
    code: str
    fate: str
    arbiter: str
    reason: str
    extra: int = 0
    important_card: bool = True
    signature: RulingSignature | None = None


@dataclass(frozen=True, slots=True)
class RevealSorteggio:
    seed: Seed


TarocchiCommand = (CreateTarocchiTournament | DrawSeating | SeatTurn | WritePlayerLine
                   | WriteTableLine | ImposePenalty | RevealSorteggio)
