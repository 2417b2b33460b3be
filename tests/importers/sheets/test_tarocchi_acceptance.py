"""Issue 14's acceptance: a whole 12-place tournament (tag style) and a 13-player one with a team
(CSV), imported from the sheets of docs/examples/tarocchi/ with errors seeded by hand: every
error is reported with its file line, sheet, sheet line and rule, nothing else is, and the
standings equal the hand computation below."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from domain.tarocchi.seats import POSITIONS
from domain.tarocchi.standings import standings
from importers.sheets.tarocchi_import import Imported, import_sheets, report

EXAMPLES = Path(__file__).parents[3] / "docs" / "examples" / "tarocchi"

# What each of the five smazzate of the examples gives, DIFF x MOLT, to North, West, South, East
# (tests/importers/sheets/tarocchi_examples.py): N+O call won 2-1; S solo with 15 cards won 1-0
# (x3 and x1); O+E call lost 0-3; E solo with 5 cards 1-1; S+N call won 4-0.
POINTS = ((1, 1, -1, -1), (-1, -1, 3, -1), (3, -3, 3, -3), (0, 0, 0, 0), (4, -4, 4, -4))


def hand_of(table: int, smazzata: int) -> int:
    """Table k (A = 0) of every turn plays hands 4k, 4k+1, ... of the five, cycling."""
    return (table * 4 + smazzata - 1) % 5


SEEDED_12 = {
    ("torneo-12.txt:9", "giocatore 1", 1, "003 art. 4"),            # validated by his Compagno
    ("torneo-12.txt:126", "giocatore 7", 10, "003 allegato DIFF"),   # DIFF 1 for 1 - 2
    ("torneo-12.txt:126", "giocatore 7", 10, "003 allegato PARZ"),   # ... so PARZ -1 != 1 x 1
    ("torneo-12.txt:171", "giocatore 10", 1, "003 allegato MOLT"),   # x1 against a solo of 5
    ("torneo-12.txt:238", "tavolo C turno I", 2, "003 art. 3"),      # dealer 12, not 9
    ("torneo-12.txt:251", "tavolo B turno II", 3, "003 allegato Scheda di Tavolo"),  # 19, not 9
    (None, "tavolo A turno IV", 4, "003 art. 3"),                    # no line: 4 never dealt
}
SEEDED_13 = {
    ("torneo-13-giocatori.csv:18", "giocatore 2", 1, "003 art. 4"),  # validated by his Chiamante
    ("torneo-13-giocatori.csv:60", "giocatore 4", 11, "003 allegato MOLT"),  # Solista writes x1
    ("torneo-13-giocatori.csv:60", "giocatore 4", 11, "003 allegato PARZ"),  # ... PARZ 3 != 1x1
    ("torneo-13-giocatori.csv:88", "giocatore 6", 7, "003 allegato PARZ"),   # PARZ 0 for -1
    ("torneo-13-giocatori.csv:88", "giocatore 6", 7, "003 allegato TOT"),    # -4 != -3 + 0
    ("torneo-13-tavoli.csv:23", "tavolo C turno II", 3, "003 allegato PARZ"),  # sum 1, not 0
    ("torneo-13-tavoli.csv:30", "tavolo B turno III", 2, "003 allegato Scheda di Tavolo"),
    (None, "tavolo C turno II", 1, "003 art. 3"),                     # no line: 8 never dealt
}
PENALTIES = {"torneo-12": {5: 2}, "torneo-13": {9: 1}}   # 8.e for 5; 8.c (a Re shown) for 9


def imported(prefix: str) -> Imported:
    files = sorted(p for p in EXAMPLES.iterdir() if p.name.startswith(prefix))
    return import_sheets([(p.name, p.read_text(encoding="utf-8")) for p in files])


@pytest.mark.parametrize(("prefix", "seeded"), [("torneo-12", SEEDED_12),
                                                ("torneo-13", SEEDED_13)])
def test_every_seeded_error_and_nothing_else(prefix: str,
                                             seeded: set[tuple[str | None, str, int, str]]) -> None:
    result = imported(prefix)
    assert result.errors == ()
    assert {(f.source, f.sheet, f.line, f.rule) for f in result.findings} == seeded
    lines = report(result)
    assert len(lines) == len(seeded)
    assert all(f"[{rule}]" in " ".join(lines) for *_, rule in seeded)


@pytest.mark.parametrize("prefix", ["torneo-12", "torneo-13"])
def test_the_standings_equal_the_hand_computation(prefix: str) -> None:
    state = imported(prefix).state
    expected = dict.fromkeys(range(1, 13), 0)
    for player, points in PENALTIES[prefix].items():
        expected[player] -= points
    for seated in state.turns:
        for k, table in enumerate(seated.tables):
            for smazzata in range(1, 5):
                for position, player in zip(POSITIONS, table.players, strict=True):
                    expected[player] += POINTS[hand_of(k, smazzata)][POSITIONS.index(position)]
    final = standings(state, 4)
    assert {line.number: line.points for line in final} == expected
    assert [line.rank for line in final] == list(range(1, 13))    # the draw was revealed
    assert all(a.points >= b.points for a, b in pairwise(final))


def test_the_team_is_one_place_and_names_who_sat() -> None:
    """003 art. 2: a team "partecipare come unico giocatore"."""
    state = imported("torneo-13").state
    assert state.created is not None and len(state.created.entrants) == 12
    team = next(n for n in range(1, 13) if state.entrant(n).is_team)
    sat = {line.member for (p, _, _), line in state.player_lines.items() if p == team}
    assert sat == {"Alfio Gulizia", "Carmelo Gulizia"}
    assert state.turns[1].basis == "classifica" and state.turns[3].basis == "precostituito"


def test_docs_show_the_whole_report() -> None:
    """docs/tarocchi.md, section 6.4, quotes the report of torneo-12.txt whole."""
    doc = (EXAMPLES.parents[1] / "tarocchi.md").read_text(encoding="utf-8")
    block = doc.split("```\ntorneo-12.txt:9:", 1)[1].split("```", 1)[0]
    assert ("torneo-12.txt:9:" + block).splitlines() == list(report(imported("torneo-12")))
