"""A tournament's sheets written out in the forms the importer reads (docs/tarocchi.md): the tag
style, one file, or CSV, a file per kind. Reading what is written gives the same lines back."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from domain.tarocchi.events import PenaltyImposed, PlayerLineWritten, TableLineWritten
from domain.tarocchi.seats import ROMAN
from domain.tarocchi.sheet import Games
from domain.tarocchi.state import TarocchiState
from importers.sheets.tarocchi_fields import PENALTY_FIELDS, PLAYER_FIELDS, TABLE_FIELDS


def games_text(games: Games) -> str:
    return " ".join(kind if count == 1 else f"{kind}{count}" for kind, count in games)


def header_text(state: TarocchiState) -> str:
    assert state.created is not None and state.draw is not None
    places = ", ".join(f"{e.name} ({' + '.join(e.members)})" if e.is_team else e.name
                       for e in state.created.entrants)
    return "\n".join((f'[Torneo "{state.created.name}"]', f'[Iscritti "{places}"]',
                      f'[Ricomposizione "{state.created.recomposition}"]',
                      f'[Finale "{state.created.final}"]', f'[Seme "{state.draw.seed}"]',
                      f'[SemeSorteggio "{state.sorteggio or ""}"]')) + "\n"


def _player_cells(state: TarocchiState, line: PlayerLineWritten) -> dict[str, str]:
    table = state.table_of(line.turn, line.player)
    return {"giocatore": str(line.player), "turno": ROMAN[line.turn - 1],
            "smazzata": str(line.smazzata), "tavolo": table.letter if table else "",
            "pos": table.position_of(line.player).value if table else "",
            "piu": games_text(line.plus), "meno": games_text(line.minus),
            "diff": str(line.diff), "molt": str(line.molt), "pen": str(line.penalty),
            "parz": str(line.parz), "tot": str(line.tot), "ruolo": line.role or "",
            "validato": _number(line.validator), "socio": line.member or ""}


def _table_cells(line: TableLineWritten) -> dict[str, str]:
    return {"turno": ROMAN[line.turn - 1], "tavolo": line.table, "smazzata": str(line.smazzata),
            "mazziere": _number(line.dealer), "chiamante": _number(line.caller),
            "compagno": _number(line.partner), "solista": _number(line.solista),
            "carte": _number(line.solista_cards),
            "totali": " ".join(f"{p}:{t}" for p, t in line.totals),
            "compilatore": _number(line.compiler), "validato": _number(line.validator)}


def _penalty_cells(penalty: PenaltyImposed) -> dict[str, str]:
    return {"giocatore": str(penalty.player), "turno": ROMAN[penalty.turn - 1],
            "smazzata": str(penalty.smazzata), "tipo": penalty.code, "esito": penalty.fate,
            "arbitro": penalty.arbiter, "motivo": penalty.reason, "extra": "", "carta": ""}


def _number(value: int | None) -> str:
    return "" if value is None else str(value)


def _pairs(cells: dict[str, str], skip: Iterable[str]) -> str:
    out = []
    for name, value in cells.items():
        if name in skip or value == "":
            continue
        out.append(f'{name}="{value}"' if " " in value or '"' in value else f"{name}={value}")
    return " ".join(out)


def write_tags(state: TarocchiState) -> str:
    """The whole tournament in the tag style: header, player sheets, table sheets, penalties."""
    parts = [header_text(state)]
    for number in range(1, state.places + 1):
        lines = sorted((k, v) for k, v in state.player_lines.items() if k[0] == number)
        parts.append(f'\n[Scheda "{number}"]  ; {state.name_of(number)}\n')
        for (_, turn, smazzata), line in lines:
            cells = _player_cells(state, line)
            parts.append(f"{ROMAN[turn - 1]}.{smazzata} "
                         f"{_pairs(cells, ('giocatore', 'turno', 'smazzata'))}\n")
    for turn, seated in enumerate(state.turns, start=1):
        for table in seated.tables:
            parts.append(f'\n[Tavolo "{ROMAN[turn - 1]} {table.letter}"]\n')
            for smazzata in range(1, 5):
                written = state.table_lines.get((turn, table.letter, smazzata))
                if written is not None:
                    cells = _table_cells(written)
                    parts.append(f"{smazzata} {_pairs(cells, ('turno', 'tavolo', 'smazzata'))}\n")
    for penalty in state.penalties:
        cells = _penalty_cells(penalty)
        parts.append(f'\n[Penalita "{penalty.player}"]\n{ROMAN[penalty.turn - 1]}.'
                     f"{penalty.smazzata} {_pairs(cells, ('giocatore', 'turno', 'smazzata'))}\n")
    return "".join(parts)


def write_csv(state: TarocchiState) -> dict[str, str]:
    """Three CSV files: `giocatori.csv`, `tavoli.csv`, `penalita.csv`."""
    players = [_player_cells(state, line) for _, line in sorted(state.player_lines.items())]
    tables = [_table_cells(line) for line in state.table_lines.values()]
    penalties = [_penalty_cells(p) for p in state.penalties]
    return {"giocatori.csv": _csv(PLAYER_FIELDS, players),
            "tavoli.csv": _csv(TABLE_FIELDS, tables),
            "penalita.csv": _csv(PENALTY_FIELDS, penalties)}


def _csv(columns: tuple[str, ...], rows: list[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([row[c] for c in columns])
    return out.getvalue()
