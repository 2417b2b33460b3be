"""A tournament's standings, its rounds and KO tables, and a player's record, from the read
models.

Standings rank the tournament's lines by VP, then MP, then the tie-break order the caller asks
for (TIEBREAKS; DEFAULT_TIEBREAK when none is given, docs/read-models.md says why): the sources
(000, 004) give none. Lines still level after every key share their rank ("ex aequo"): the
director decides, verbale does not invent an order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from domain.text import Said, say
from projections.read_models.queries import (
    MatchQuery,
    MatchRow,
    match_page,
    tournaments_named,
)
from projections.read_models.schema import Giocatore, Linea, Partita, Posto, Smazzata, Torneo
from projections.read_models.tallies import lines

TIEBREAKS = {
    "scontri": "VP won in the matches between the lines still level",
    "differenza": "points made less points conceded (the MP basis)",
    "fatti": "points made",
    "vittorie": "matches won",
}
DEFAULT_TIEBREAK = ("scontri", "differenza", "vittorie")


class StandingsError(ValueError):
    """A tournament that cannot be named, or a tie-break that does not exist."""


@dataclass(frozen=True, slots=True)
class LineStanding:
    rank: int
    level: bool          # shares its rank with another line after every key
    line: str
    played: int
    won: int
    drawn: int
    lost: int
    vp: int
    mp: int
    points_for: int
    points_against: int
    head_to_head: int | None   # VP against the lines level with it, when "scontri" was used


@dataclass(frozen=True, slots=True)
class Standings:
    tournament: str
    name: str
    game: str
    vp_table: str
    tiebreak: tuple[str, ...]
    lines: tuple[LineStanding, ...]
    matches: int
    ended: int


def parse_tiebreak(text: str | None) -> tuple[str, ...]:
    """The keys of a comma-separated tie-break order; StandingsError naming an unknown one."""
    if text is None:
        return DEFAULT_TIEBREAK
    keys = tuple(key.strip() for key in text.split(",") if key.strip())
    unknown = [key for key in keys if key not in TIEBREAKS]
    if unknown or len(set(keys)) != len(keys):
        raise StandingsError(say("tie-break {given!r}: expected distinct keys among {known}",
                                 given=text, known=", ".join(TIEBREAKS)))
    return keys


def resolve_tournament(engine: Engine, text: str) -> tuple[str, str]:
    """(id, name) of the one tournament `text` names (start of its id, or part of its name)."""
    with Session(engine) as session:
        found = tournaments_named(session, text)
        names = {s: n for s, n in session.execute(select(Torneo.stream, Torneo.name))}
    if not found:
        raise StandingsError(say("tournament {text!r}: none has that id or name", text=text))
    if len(found) > 1:
        listed = "; ".join(f"{stream[:8]} {names[stream]}" for stream in found[:5])
        raise StandingsError(say("tournament {text!r}: several match ({found}); give more of "
                                 "the id", text=text, found=listed))
    return found[0], names[found[0]]


def standings(engine: Engine, tournament: str,
              tiebreak: Sequence[str] = DEFAULT_TIEBREAK) -> Standings:
    """The standings of the tournament with id `tournament`."""
    with Session(engine) as session, session.begin():
        torneo = session.get(Torneo, tournament)
        if torneo is None:
            raise StandingsError(say("tournament {id}: not in the read models", id=tournament))
        # A line whose only result was taken back (its match resumed) has played none.
        rows = list(session.scalars(select(Linea).where(Linea.tournament == tournament,
                                                        Linea.played > 0)))
        ended = list(session.scalars(select(Partita).where(
            Partita.tournament == tournament, Partita.state == "ended")))
        played = len(list(session.scalars(select(Partita.stream).where(
            Partita.tournament == tournament))))
        result = Standings(tournament, torneo.name, torneo.game, torneo.vp_table,
                           tuple(tiebreak), _ranked(rows, ended, tuple(tiebreak)), played,
                           len(ended))
    return result


def _ranked(rows: list[Linea], ended: list[Partita],
            tiebreak: tuple[str, ...]) -> tuple[LineStanding, ...]:
    """The lines in order; each final group still level shares the rank of its first."""
    h2h: dict[str, int] = {}
    final: list[list[Linea]] = []
    for group in _split(sorted(rows, key=lambda r: (-r.vp, -r.mp, r.line)),
                        lambda r: (r.vp, r.mp)):
        final.extend(_break(group, ended, tiebreak, h2h))
    result: list[LineStanding] = []
    for group in final:
        rank = len(result) + 1
        result.extend(LineStanding(
            rank, len(group) > 1, row.line, row.played, row.won, row.drawn, row.lost, row.vp,
            row.mp, row.points_for, row.points_against, h2h.get(row.line)) for row in group)
    return tuple(result)


def _split(rows: list[Linea], key: Callable[[Linea], object]) -> list[list[Linea]]:
    groups: list[list[Linea]] = []
    for row in rows:
        if groups and key(groups[-1][0]) == key(row):
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups


def _break(group: list[Linea], ended: list[Partita], keys: tuple[str, ...],
           h2h: dict[str, int]) -> list[list[Linea]]:
    """Split a group level on VP and MP by the tie-break keys, one key at a time (the
    head-to-head of a group counts only the matches between its own lines)."""
    if len(group) == 1 or not keys:
        return [group]
    key, rest = keys[0], keys[1:]
    if key == "scontri":
        h2h.update(_head_to_head(group, ended))
    value: Callable[[Linea], int] = {
        "scontri": lambda r: h2h[r.line],
        "differenza": lambda r: r.points_for - r.points_against,
        "fatti": lambda r: r.points_for,
        "vittorie": lambda r: r.won,
    }[key]
    out: list[list[Linea]] = []
    for sub in _split(sorted(group, key=lambda r: (-value(r), r.line)), value):
        out.extend(_break(sub, ended, rest, h2h))
    return out


def _head_to_head(group: list[Linea], ended: list[Partita]) -> dict[str, int]:
    level = {row.line for row in group}
    won = dict.fromkeys(level, 0)
    for partita in ended:
        both = lines(partita)
        if both[0] in level and both[1] in level and both[0] != both[1]:
            for side, line in enumerate(both):
                won[line] += (partita.vp_0, partita.vp_1)[side] or 0
    return won


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int | None
    table: int | None
    match: MatchRow
    spareggi: tuple[tuple[int, int, int], ...]   # (spareggio, points side 0, side 1)


def tournament_tables(engine: Engine, tournament: str) -> tuple[TableResult, ...]:
    """Every match of the tournament by round and table, with its KO spareggi."""
    page = match_page(engine, MatchQuery(tournament=tournament, size=100_000))
    rows = sorted(page.rows, key=lambda r: (r.round or 0, r.table or 0, r.created))
    with Session(engine) as session:
        spareggi: dict[str, list[tuple[int, int, int]]] = {}
        for row in session.scalars(select(Smazzata).where(
                Smazzata.stream.in_([r.stream for r in rows]), Smazzata.spareggio > 0)
                .order_by(Smazzata.stream, Smazzata.number)):
            spareggi.setdefault(row.stream, []).append(
                (row.spareggio, row.points_0, row.points_1))
    return tuple(TableResult(r.round, r.table, r, tuple(spareggi.get(r.stream, ())))
                 for r in rows)


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    name: str
    matches: int
    ended: int
    won: int
    drawn: int
    lost: int
    smazzate: int
    vp: int
    mp: int
    accusi: int
    accusi_points: int
    scope: int
    timeouts: int
    abandons: int
    recent: tuple[MatchRow, ...]


def player_record(engine: Engine, text: str, recent: int = 10) -> PlayerRecord:
    """The record of the player named `text` exactly, else of the one whose name contains it."""
    with Session(engine) as session:
        row = session.get(Giocatore, text)
        if row is None:
            wanted = text.strip().lower()
            found = [g for g in session.scalars(select(Giocatore))
                     if wanted in g.name.lower()]
            if len(found) != 1:
                raise StandingsError(_no_player(text, [g.name for g in found]))
            row = found[0]
        name = row.name
        counts = (row.matches, row.ended, row.won, row.drawn, row.lost, row.smazzate, row.vp,
                  row.mp, row.accusi, row.accusi_points, row.scope, row.timeouts,
                  row.abandons)
        seated = session.scalar(select(Posto.stream).where(Posto.player == name).limit(1))
    shown = match_page(engine, MatchQuery(player=name, size=recent)).rows if seated else ()
    shown = tuple(r for r in shown if name in r.players)
    return PlayerRecord(name, *counts, recent=shown)


def _no_player(text: str, found: list[str]) -> Said:
    if not found:
        return say("player {text!r}: nobody of that name has played", text=text)
    return say("player {text!r}: several players match ({names}); give the whole name",
               text=text, names=", ".join(sorted(found)[:8]))
