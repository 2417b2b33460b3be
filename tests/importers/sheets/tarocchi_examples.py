"""The example tournaments of docs/examples/tarocchi/, as a careful scorer would write them.

`python -m tests.importers.sheets.tarocchi_examples DIR` writes them correct into DIR; the files
committed under docs/examples/tarocchi/ are these with the errors of SEEDED written in by hand
(test_tarocchi_acceptance.py checks that each is reported)."""

from __future__ import annotations

import sys
from pathlib import Path

from domain.tarocchi.commands import (
    CreateTarocchiTournament,
    DrawSeating,
    ImposePenalty,
    RevealSorteggio,
    SeatTurn,
)
from domain.tarocchi.entrants import Entrant
from domain.tarocchi.events import TarocchiTournamentCreated
from domain.tarocchi.sheet import Roles
from domain.tarocchi.state import TarocchiState
from importers.sheets.tarocchi_write import write_csv, write_tags
from tests.domain.tarocchi.builders import SEATING_SEED, SORTEGGIO_SEED, Hand, play_turn, run

# The smazzate every table plays, in this order, cycling over the tables of a turn: table A
# plays hands 0-3, table B hands 4, 0, 1, 2, table C hands 3, 4, 0, 1, ... Roles by position:
# 1 North, 2 West (Ovest), 3 South, 4 East.
HANDS = (
    Hand(Roles(1, 2), (("RIM", 1), ("RE", 1)), (("VAN", 1),)),               # N+O win 2-1
    Hand(Roles(solista=3, solista_cards=15), (("RIM", 1),), ()),            # S solo wins 1-0
    Hand(Roles(2, 4), (), (("VAN", 1), ("PIC", 2))),                        # O+E lose 0-3
    Hand(Roles(solista=4, solista_cards=5), (("VAN", 1),), (("RIM", 1),)),  # E solo5 1-1
    Hand(Roles(3, 1), (("RIM", 1), ("VAN", 1), ("ARI", 2)), ()),            # S+N win 4-0
)
# Penalties ruled before the lines are written: (turn, player, smazzata, code, fate)
PENALTIES = {
    "dodici": ((2, 5, 2, "associazione", "prosegue"),),
    "tredici": ((3, 9, 1, "carta-esposta", "prosegue"),),
}


NAMES = ("Turi Cannizzaro", "Nina Russo", "Saro Lo Presti", "Melo Sciacca", "Pina Grasso",
         "Ciccio Bonanno", "Tanino Mirabella", "Concetta Failla", "Pippo Arena",
         "Rosalia Barone", "Nenè Spampinato", "Agata Ferlito")
TEAM = Entrant("I Mineoli", ("Alfio Gulizia", "Carmelo Gulizia"))


def tournament(recomposition: str, final: str, team: bool,
               penalties: tuple[tuple[int, int, int, str, str], ...]) -> TarocchiState:
    places = ((TEAM,) if team else ()) + tuple(Entrant(n) for n in NAMES[team:])
    state = run(TarocchiState(), CreateTarocchiTournament(TarocchiTournamentCreated(
        "Torneo di Mineo" if team else "Torneo di Caltagirone", places, recomposition, final,
        SEATING_SEED.commitment(), SORTEGGIO_SEED.commitment())), DrawSeating(SEATING_SEED),
        RevealSorteggio(SORTEGGIO_SEED))
    for turn in range(1, 5):
        if turn > 1:
            state = run(state, SeatTurn(turn))
        for when, player, smazzata, code, fate in penalties:
            if when == turn:
                state = run(state, ImposePenalty(player, turn, smazzata, code, fate,
                                                 "Arbitro Rossi", "annotato al tavolo"))
        state = play_turn(state, turn, HANDS)
    return state


def dodici() -> TarocchiState:
    return tournament("precostituito", "fasce", False, PENALTIES["dodici"])


def tredici() -> TarocchiState:
    return tournament("classifica", "precostituito", True, PENALTIES["tredici"])


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "torneo-12.txt").write_text(write_tags(dodici()), encoding="utf-8")
    thirteen = tredici()
    header, _, _ = write_tags(thirteen).partition("\n\n")
    (folder / "torneo-13.txt").write_text(header + "\n", encoding="utf-8")
    team = thirteen.draw.numbers[0] if thirteen.draw else 0
    for name, text in write_csv(thirteen).items():
        if name == "giocatori.csv":
            text = "".join(_with_member(line, team) for line in text.splitlines(keepends=True))
        (folder / f"torneo-13-{name}").write_text(text, encoding="utf-8")


def _with_member(line: str, team: int) -> str:
    """The team's rows name who sat: one brother in turns I and III, the other in II and IV."""
    cells = line.split(",")
    if cells[0] != str(team):
        return line
    turn = ("I", "II", "III", "IV").index(cells[1])
    return line.rstrip("\n") + TEAM.members[turn % 2] + "\n"


if __name__ == "__main__":
    write(Path(sys.argv[1]))
