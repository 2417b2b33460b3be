"""Standings after each turn and final, with the tie-break order of 003 art. 9.

Points are the punti partita ("jochi") each entrant gained: for every line of his sheet, DIFF
from the games written in + and -, times the MOLT the table sheet's roles give, less the
penalties an arbiter ruled (TQ9: what the sheets should say, so a wrong DIFF, MOLT or TOT written
by hand is a finding and not a point). Ties, art. 9: "1. la migliore differenza tra i Punti
Partita realizzati in positivo ... e quelli subiti; 2. il miglior valore del numero dei Punti
Partita realizzati ...; 3. il maggior numero di Solità affrontate con esito non negativo; 4. il
maggior valore di Punti Gioco "extra" realizzati (+) ... In caso di ulteriore parità si darà luogo
al sorteggio."
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.shuffle import Seed
from domain.tarocchi.draw import sorteggio
from domain.tarocchi.sheet import Role, diff, extra, total
from domain.tarocchi.state import TarocchiState


@dataclass(frozen=True, slots=True)
class Line:
    """One entrant's line of the standings after turn `turn`."""

    number: int
    name: str
    points: int
    plus: int
    minus: int
    solita: int
    extra: int
    lot: int | None
    """The lot of the art. 9 draw (higher wins), None until the tie-break seed is revealed."""
    rank: int = 0

    @property
    def difference(self) -> int:
        return self.plus - self.minus

    def key(self) -> tuple[int, int, int, int, int, int]:
        """Sorting by this key ranks the lines: each criterion of art. 9 in its order, the draw
        last. With the draw known no two entrants share a key: a total order."""
        lot = -1 if self.lot is None else self.lot
        return (-self.points, -self.difference, -self.plus, -self.solita, -self.extra, -lot)


def precedes(a: Line, b: Line) -> bool:
    """Whether `a` ranks above `b`."""
    return a.key() < b.key()


def lines_after(state: TarocchiState, turn: int) -> tuple[Line, ...]:
    """The unranked lines of every entrant, counting turns 1..`turn`."""
    lots = (sorteggio(Seed.from_hex(state.sorteggio), turn, state.places)
            if state.sorteggio is not None else None)
    tally: dict[int, list[int]] = {n: [0, 0, 0, 0, 0] for n in range(1, state.places + 1)}
    for (player, line_turn, smazzata), line in state.player_lines.items():
        if line_turn > turn:
            continue
        roles = state.roles(line_turn, player, smazzata)
        molt = roles.molt_of(player) if roles else line.molt
        gained = diff(line.plus, line.minus) * molt
        row = tally[player]
        row[0] += gained
        row[1] += total(line.plus)
        row[2] += total(line.minus)
        row[3] += int(roles is not None and roles.role_of(player) is Role.SOLISTA
                      and gained >= 0)
        row[4] += extra(line.plus)
    for penalty in state.penalties:
        if penalty.turn <= turn:
            tally[penalty.player][0] -= penalty.points
    return tuple(Line(n, state.name_of(n), row[0], row[1], row[2], row[3], row[4],
                      None if lots is None else lots[n - 1])
                 for n, row in tally.items())


def standings(state: TarocchiState, turn: int) -> tuple[Line, ...]:
    """The ranked standings after turn `turn`. Lines whose keys are equal (only possible before
    the draw is revealed) share a rank."""
    ordered = sorted(lines_after(state, turn), key=Line.key)
    ranked: list[Line] = []
    for place, line in enumerate(ordered, start=1):
        tied = ranked and ranked[-1].key() == line.key()
        ranked.append(_with_rank(line, ranked[-1].rank if tied else place))
    return tuple(ranked)


def strict_order(state: TarocchiState, turn: int) -> tuple[int, ...] | None:
    """The entrants' numbers from first to last, or None while a tie waits for the draw."""
    ranked = standings(state, turn)
    if len({line.rank for line in ranked}) < len(ranked):
        return None
    return tuple(line.number for line in ranked)


def _with_rank(line: Line, rank: int) -> Line:
    return Line(line.number, line.name, line.points, line.plus, line.minus, line.solita,
                line.extra, line.lot, rank)
