"""The Tarocchi sheets' readers (docs/tarocchi.md): errors name file, line and column; strict
stops at the first, lenient collects; what the writer writes reads back the same."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from importers.notation.errors import NotationError
from importers.sheets.tarocchi_csv import read_csv
from importers.sheets.tarocchi_import import import_sheets
from importers.sheets.tarocchi_tags import read_tags
from importers.sheets.tarocchi_write import write_csv, write_tags
from tests.importers.sheets.tarocchi_examples import dodici, tredici

HEADER = """[Torneo "T"]
[Iscritti "A, B, Squadra (C + D), E"]
[Ricomposizione "precostituito"]
[Finale "fasce"]
[Seme "000102030405060708090a0b0c0d0e0f"]
[SemeSorteggio "5eed0000000000000000000000000003"]
"""


def test_the_tag_style_reads_back_what_the_writer_wrote() -> None:
    state = dodici()
    again = import_sheets([("t.txt", write_tags(state))]).state
    assert again.player_lines.keys() == state.player_lines.keys()
    assert all(again.player_lines[k].tot == v.tot and again.player_lines[k].plus == v.plus
               for k, v in state.player_lines.items())
    assert again.penalties == state.penalties and again.turns == state.turns


def test_the_csv_reads_back_what_the_writer_wrote() -> None:
    state = tredici()
    files = [("h.txt", write_tags(state).partition("\n\n")[0])]
    files += [(name, text) for name, text in write_csv(state).items()]
    again = import_sheets(files).state
    assert {k: (v.diff, v.parz, v.tot) for k, v in again.player_lines.items()} == {
        k: (v.diff, v.parz, v.tot) for k, v in state.player_lines.items()}
    assert again.turns == state.turns


def test_header_entrants_and_teams() -> None:
    sheets = read_tags(HEADER, "h.txt")
    assert sheets.header is not None
    assert [e.name for e in sheets.header.entrants] == ["A", "B", "Squadra", "E"]
    assert sheets.header.entrants[2].members == ("C", "D")


@pytest.mark.parametrize(("text", "line", "column", "what"), [
    ('[Scheda "1"]\nI.1 piu=XX diff=0 molt=1 parz=0 tot=0', 2, 5, "kind of game"),
    ('[Scheda "1"]\nI.1 diff=uno molt=1 parz=0 tot=0', 2, 5, "whole number"),
    ('[Scheda "1"]\nV.1 diff=0 molt=1 parz=0 tot=0', 2, 1, "a turn, I to IV"),
    ('[Scheda "1"]\nI.1 diff=0 colore=rosso', 2, 12, "a field of this section"),
    ('[Scheda "1"]\nI.1 diff=0 "sciolto"', 2, 12, "name=value pairs"),
    ("I.1 diff=0", 1, 1, "section first"),
    ('[Colore "rosso"]', 1, 1, "a tag of the header"),
    ('[Tavolo "I"]\n1 mazziere=1', 1, 9, "a turn and a table"),
    ('[Tavolo "I A"]\n1 totali="1:2 3"', 2, 3, "player:TOT pairs"),
])
def test_errors_name_the_file_line_and_column(text: str, line: int, column: int,
                                              what: str) -> None:
    with pytest.raises(NotationError, match=what) as caught:
        read_tags(text, "s.txt")
    assert (caught.value.source, caught.value.line, caught.value.column) == ("s.txt", line,
                                                                            column)


def test_lenient_collects_and_skips() -> None:
    text = '[Scheda "1"]\nI.1 piu=XX diff=0 molt=1 parz=0 tot=0\nI.2 diff=0 molt=1 parz=0 tot=0'
    sheets = read_tags(text, "s.txt", lenient=True)
    assert [e.line for e in sheets.errors] == [2] and len(sheets.players) == 1


def test_csv_errors() -> None:
    with pytest.raises(NotationError, match="a column of a giocatore sheet") as caught:
        read_csv("giocatore,turno,smazzata,piu,colore\n", "g.csv")
    assert (caught.value.line, caught.value.column) == (1, 5)
    with pytest.raises(NotationError, match="3 cells") as cells:
        read_csv("giocatore,turno,smazzata,piu\n1,I,1\n", "g.csv")
    assert cells.value.line == 2
    lenient = read_csv("giocatore,turno,smazzata,piu,diff,molt,parz,tot\n1,I,1,,x,1,0,0\n"
                       "1,I,2,,0,1,0,0\n", "g.csv", lenient=True)
    assert [e.line for e in lenient.errors] == [2] and len(lenient.players) == 1


def test_a_seat_that_is_not_the_seating_is_an_error() -> None:
    """Allegato: "le colonne TURNO e TAV. saranno sempre compilate dai responsabili del
    Torneo": a table or position that is not the seating's is refused."""
    text = write_tags(dodici()).replace("I.1 tavolo=A pos=N", "I.1 tavolo=B pos=N", 1)
    with pytest.raises(NotationError, match="table A: player 1 sits there") as caught:
        import_sheets([("t.txt", text)])
    assert caught.value.line == 9
    lenient = import_sheets([("t.txt", text)], lenient=True)
    assert [e.line for e in lenient.errors] == [9]


def test_a_refused_line_is_an_error_at_its_line() -> None:
    text = HEADER + '[Scheda "9"]\nI.1 diff=0 molt=1 parz=0 tot=0\n'
    with pytest.raises(NotationError, match="no such player in turn 1") as caught:
        import_sheets([("t.txt", text)])
    assert caught.value.line == 8


@given(st.text(max_size=200))
def test_only_notation_errors_escape(text: str) -> None:
    for reader in (read_tags, read_csv):
        with contextlib.suppress(NotationError):
            reader(text, "f")
