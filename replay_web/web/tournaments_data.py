"""What the Tarocchi tournament pages show, as plain data for the templates: the tournament and
its standings after each turn (read models), and from its state (read back from the read models,
projections/read_models/queries_tarocchi.py) the tables of each turn, each player's sheet in
paper order and the checks' findings (domain/tarocchi/checks.py). No SQL here."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from domain.tarocchi.checks import findings, player_sheet
from domain.tarocchi.penalties import CATALOGUE
from domain.tarocchi.seats import DEALERS, POSITIONS, ROMAN, SMAZZATE_PER_TURN
from domain.tarocchi.sheet import KINDS, line_number
from domain.tarocchi.state import TarocchiState
from importers.sheets.tarocchi_write import games_text
from projections.read_models.queries_tarocchi import (
    tarocchi_standings,
    tarocchi_state,
    tarocchi_tournament,
    tarocchi_turns,
)

JSON = dict[str, Any]


def tournament_data(engine: Engine, stream: str) -> JSON | None:
    """Everything the tournament page shows; None: no such tournament."""
    about = tarocchi_tournament(engine, stream)
    state = tarocchi_state(engine, stream)
    if about is None or state is None:
        return None
    found = findings(state)
    return {
        "about": about,
        "standings": [{"turn": t, "roman": ROMAN[t - 1], "final": t == 4,
                       "lines": tarocchi_standings(engine, stream, t)}
                      for t in range(about.turns, 0, -1)],
        "turns": turns_data(state, {t.turn: t.basis for t in tarocchi_turns(engine, stream)}),
        "players": [{"number": n, "name": state.name_of(n), "members": state.entrant(n).members,
                     "findings": sum(1 for f in found if f.sheet == player_sheet(n))}
                    for n in range(1, state.places + 1)] if state.draw else [],
        "findings": found,
        "penalties": [{"penalty": p, "article": CATALOGUE[p.code].article,
                       "name": state.name_of(p.player), "roman": ROMAN[p.turn - 1]}
                      for p in state.penalties],
    }


def turns_data(state: TarocchiState, bases: dict[int, str]) -> list[JSON]:
    """Each seated turn's tables: who sits where, the dealer of each smazzata."""
    return [{"turn": seated.turn, "roman": ROMAN[seated.turn - 1],
             "basis": bases.get(seated.turn, seated.basis),
             "tables": [{"letter": table.letter,
                         "seats": [{"position": p.value, "number": table.at(p),
                                    "name": state.name_of(table.at(p)),
                                    "first_dealer": p is DEALERS[0]} for p in POSITIONS]}
                        for table in seated.tables]}
            for seated in state.turns]


def sheet_data(engine: Engine, stream: str, number: int) -> JSON | None:
    """A player's Scheda Punteggio Giocatore: the 16 lines in paper order, as written, with
    the findings on each line; None: no such tournament or player."""
    about = tarocchi_tournament(engine, stream)
    state = tarocchi_state(engine, stream)
    if about is None or state is None or state.draw is None or not 1 <= number <= state.places:
        return None
    sheet = player_sheet(number)
    noted: dict[int, list[Any]] = {}
    for finding in findings(state):
        if finding.sheet == sheet:
            noted.setdefault(finding.line, []).append(finding)
    lines = []
    for seated in state.turns:
        table = state.table_of(seated.turn, number)
        for smazzata in range(1, SMAZZATE_PER_TURN + 1):
            written = state.player_lines.get((number, seated.turn, smazzata))
            at = line_number(seated.turn, smazzata)
            lines.append({
                "line": at, "roman": ROMAN[seated.turn - 1], "smazzata": smazzata,
                "table": table.letter if table else "",
                "position": table.position_of(number).value if table else "",
                "written": written,
                "plus": games_text(written.plus) if written else "",
                "minus": games_text(written.minus) if written else "",
                "findings": noted.get(at, [])})
    entrant = state.entrant(number)
    return {"about": about, "number": number, "name": entrant.name,
            "members": entrant.members, "lines": lines,
            "penalties": [p for p in state.penalties if p.player == number],
            "kinds": KINDS, "findings": sum(len(v) for v in noted.values())}

