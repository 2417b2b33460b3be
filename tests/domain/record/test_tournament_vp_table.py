"""A tournament may declare its own VP table: recorded whole in TournamentCreated, checked at
creation, and `table_of` says which table its matches are scored with."""

from __future__ import annotations

from importlib import resources

import pytest

from domain.match_format import MatchFormat
from domain.record.events import DeclaredVpTable, TournamentCreated
from domain.record.tournament import TournamentRefused, TournamentState, decide_creation
from domain.vp_table import STANDARD, table_of, vp_split

STANDARD_TEXT = resources.files("domain").joinpath("vp_tables.toml").read_text(encoding="utf-8")


def test_no_declared_table_is_the_standard_table() -> None:
    (created,) = decide_creation(TournamentState(), "Coppa", "cirulla")
    assert created == TournamentCreated(name="Coppa", game="cirulla", vp_table=None)
    assert isinstance(created, TournamentCreated) and table_of(created) is STANDARD


def test_a_declared_table_is_recorded_whole_and_read_back() -> None:
    text = STANDARD_TEXT.replace('name = "verbale standard"', 'name = "coppa"')
    start = text.index('formats = ["7pt"')
    at = text.index('"16-4" = [7, 8]', start)
    text = text[:at] + '"16-4" = [7, 7]' + text[at + len('"16-4" = [7, 8]'):]
    at = text.index('"17-3" = [9, "+"]', start)
    text = text[:at] + '"17-3" = [8, "+"]' + text[at + len('"17-3" = [9, "+"]'):]
    declared = DeclaredVpTable(name="coppa.toml", text=text)
    (created,) = decide_creation(TournamentState(), "Coppa", "cirulla", declared)
    assert isinstance(created, TournamentCreated) and created.vp_table == declared
    table = table_of(created)
    assert (table.name, table.origin, table.text) == ("coppa", "coppa.toml", text)
    fmt = MatchFormat.parse("7pt", "cirulla")
    assert vp_split(fmt, 8, table=table) == (17, 3)
    assert vp_split(fmt, 8) == (16, 4)


def test_a_bad_declared_table_is_refused_naming_the_file_and_the_cell() -> None:
    text = STANDARD_TEXT.replace("decided = 25", "decided = 26", 1)
    with pytest.raises(TournamentRefused) as refused:
        decide_creation(TournamentState(), "Coppa", "cirulla",
                        DeclaredVpTable(name="coppa.toml", text=text))
    assert refused.value.rule == "vp_table"
    assert str(refused.value) == ("coppa.toml: cirulla 31pt, row 19-1: gap: MP 25..25 are in no "
                                  "row [vp_table]")


def test_a_declared_table_must_have_the_tournament_game() -> None:
    cirulla_only = STANDARD_TEXT[:STANDARD_TEXT.index("[games.briscola]")]
    readings = STANDARD_TEXT[STANDARD_TEXT.index("[[readings]]"):].split("[[readings]]")
    text = cirulla_only + "[[readings]]".join(r for r in readings if 'game = "briscola"' not in r)
    declared = DeclaredVpTable(name="solo-cirulla.toml", text=text)
    assert decide_creation(TournamentState(), "Coppa", "cirulla", declared)
    with pytest.raises(TournamentRefused, match="no table for briscola"):
        decide_creation(TournamentState(), "Coppa", "briscola", declared)
