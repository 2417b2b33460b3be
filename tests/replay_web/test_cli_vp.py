"""`verbale vp`: a split, a whole column, another table, JSON, and one-line refusals (exit 2);
`verbale simulate matches --vp-table FILE`: the demo tournaments declare that table."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from uuid import NAMESPACE_URL, uuid5

import pytest

from domain.record.events import TournamentCreated
from domain.vp_table import STANDARD, table_of
from projections.store.app import MatchStore
from replay_web.cli_database import open_store
from tests.verbale_cli import run

STANDARD_TEXT = resources.files("domain").joinpath("vp_tables.toml").read_text(encoding="utf-8")


def test_the_issue_example_21pt_won_by_13_is_16_4() -> None:
    assert run("vp", "--game", "cirulla", "--format", "21pt", "--mp", "13") == (0, "16-4\n")


@pytest.mark.parametrize(("game", "fmt", "mp", "split"), [
    ("cirulla", "3smazzate", "13", "16-4"),  # the 21pt column serves 3 smazzate too
    ("cirulla", "51pt", "22", "17-3"),  # V5
    ("cirulla", "31pt", "24", "18-2"),  # V1
    ("cirulla", "7pt", "300", "17-3"),  # V3: "9 +"
    ("briscola", "3smazzate", "34", "15-5"),  # V2: 17-3 is 54..62
    ("briscola", "punti", "3", "11-9"),  # V4: an odd MP goes with the row below
    ("briscola", "2smazzate", "0", "10-10"),  # the 2 smazzate column (smazzate pari)
])
def test_a_split(game: str, fmt: str, mp: str, split: str) -> None:
    assert run("vp", "--game", game, "--format", fmt, "--mp", mp) == (0, f"{split}\n")


def test_json_says_the_split_the_table_and_the_row() -> None:
    code, out = run("vp", "--game", "cirulla", "--format", "21pt", "--mp", "13", "--json")
    assert code == 0, out
    assert json.loads(out) == {
        "game": "cirulla", "format": "21pt", "mp": 13, "vp": [16, 4],
        "table": {"name": "verbale standard", "version": 2, "sha256": STANDARD.sha256},
        "row": {"split": "16-4", "da": 12, "a": 14}}
    code, out = run("vp", "--game", "cirulla", "--format", "51pt", "--mp", "40", "--json")
    assert json.loads(out)["row"] == {"split": "20-0", "da": 33, "a": None}


def test_without_mp_the_whole_column_with_its_readings() -> None:
    code, out = run("vp", "--game", "cirulla", "--format", "51pt")
    assert code == 0, out
    assert "verbale standard v2 (000, 004; readings V1–V5)" in " ".join(out.split())
    lines = [line.split() for line in out.splitlines()]
    rows = [cells for cells in lines if cells and cells[0][:2].isdigit() and "-" in cells[0]]
    assert [cells[0] for cells in rows] == [f"{w}-{20 - w}" for w in range(10, 21)]
    assert ["17-3", "│", "22", "│", "25", "│", "V5:", "da", "MP", "printed", "23"] in lines
    assert rows[-1][:5] == ["20-0", "│", "33", "│", "+"]


def test_the_whole_column_as_json() -> None:
    code, out = run("vp", "--game", "briscola", "--format", "3smazzate", "--json")
    assert code == 0, out
    column = json.loads(out)
    assert column["column"] == "3 smazzate"
    assert column["rows"][7] == {"split": "17-3", "da": 54, "a": 62}
    assert len(column["rows"]) == 11


@pytest.mark.parametrize(("args", "said"), [
    (("--game", "briscola", "--format", "5smazzate", "--mp", "2"), "no VP column"),
    (("--game", "briscola", "--format", "4sm"), "no VP column"),
    (("--game", "briscola", "--format", "punti", "--mp", "121"),
     "MP 121 cannot occur, at most 120"),
    (("--game", "cirulla", "--format", "21pt", "--mp", "-3"), "MP must be a non-negative int"),
    (("--game", "cirulla", "--format", "22pt", "--mp", "3"), "target 22: not allowed"),
    (("--game", "cirulla", "--format", "21pt", "--mp", "x"), "'x' is not a valid integer"),
])
def test_a_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], said: str) -> None:
    code, out = run("vp", *args)
    assert code == 2
    assert len(out.strip().splitlines()) == 1 and said in out, out


def _table_file(tmp_path: Path, text: str, name: str = "torneo.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _house_table() -> str:
    """The standard table, renamed, with the 21pt column's 16-4 row ending at 13."""
    text = STANDARD_TEXT.replace('name = "verbale standard"', 'name = "torneo di casa"')
    start = text.index('formats = ["21pt"')
    for old, new in (('"16-4" = [12, 14]', '"16-4" = [12, 13]'),
                     ('"17-3" = [15, 17]', '"17-3" = [14, 17]')):
        at = text.index(old, start)
        text = text[:at] + new + text[at + len(old):]
    return text


def test_another_table(tmp_path: Path) -> None:
    path = _table_file(tmp_path, _house_table())
    assert run("vp", "--game", "cirulla", "--format", "21pt", "--mp", "14",
               "--table", path) == (0, "17-3\n")
    assert run("vp", "--game", "cirulla", "--format", "21pt", "--mp", "14") == (0, "16-4\n")
    code, out = run("vp", "--game", "cirulla", "--format", "21pt", "--mp", "14", "--json",
                    "--table", path)
    assert code == 0 and json.loads(out)["table"]["name"] == "torneo di casa"


def test_a_bad_table_is_one_line_naming_the_file_and_the_cell(tmp_path: Path) -> None:
    gap = _house_table().replace('"17-3" = [14, 17]', '"17-3" = [15, 17]', 1)
    path = _table_file(tmp_path, gap)
    code, out = run("vp", "--game", "cirulla", "--format", "21pt", "--table", path)
    assert code == 2
    assert out.strip() == (f"verbale: {path}: cirulla 21pt, row 17-3: gap: MP 14..14 are in "
                           "no row")


def test_a_table_that_is_not_toml_names_the_line(tmp_path: Path) -> None:
    path = _table_file(tmp_path, 'name = "x"\nversion = \n')
    code, out = run("vp", "--game", "cirulla", "--format", "21pt", "--table", path)
    assert code == 2 and len(out.strip().splitlines()) == 1
    assert f"{path}: not a TOML file" in out and "line 2" in out


def test_a_missing_table_file_is_exit_2(tmp_path: Path) -> None:
    code, out = run("vp", "--game", "cirulla", "--format", "21pt", "--table",
                    str(tmp_path / "none.toml"))
    assert code == 2 and "does not exist" in out


# --- simulate matches --vp-table -----------------------------------------------------------------

def test_simulated_tournaments_declare_the_table_they_name(tmp_path: Path) -> None:
    path = _table_file(tmp_path, _house_table())
    database = f"sqlite:///{tmp_path}/v.db"
    code, out = run("simulate", "matches", "--count", "2", "--store", "--vp-table", path,
                    "--database", database)
    assert code == 0, out
    store = open_store(database, read_only=True)
    try:
        created = [e for e in _tournament_events(store) if isinstance(e, TournamentCreated)]
    finally:
        store.close()
    assert {c.game for c in created} == {"cirulla", "briscola"}
    for event in created:
        assert event.vp_table is not None and event.vp_table.name == "torneo.toml"
        assert event.vp_table.text == _house_table()
        assert table_of(event).name == "torneo di casa"


def _tournament_events(store: MatchStore) -> list[object]:
    """The demo tournaments' events (their streams derive from the demo seed)."""
    seed = "5eed0000000000000000000000000001"
    found: list[object] = []
    for game in ("cirulla", "briscola"):
        stream = uuid5(NAMESPACE_URL, f"verbale:demo:{seed}:{game}")
        found.extend(f.to_domain() for f in store.facts(stream))
    return found


def test_simulate_refuses_a_bad_table_before_recording(tmp_path: Path) -> None:
    path = _table_file(tmp_path, STANDARD_TEXT.replace("printed = 24", "printed = 20", 1))
    code, out = run("simulate", "matches", "--count", "1", "--vp-table", path)
    assert code == 2
    assert out.strip() == (f"verbale: {path}: cirulla 31pt, row 19-1, da MP (V1): the reading "
                           "says the table prints 20, the cell holds 24")


def test_simulate_refuses_a_table_without_both_games(tmp_path: Path) -> None:
    readings = STANDARD_TEXT[STANDARD_TEXT.index("[[readings]]"):].split("[[readings]]")
    cirulla_only = STANDARD_TEXT[:STANDARD_TEXT.index("[games.briscola]")] + "[[readings]]".join(
        r for r in readings if 'game = "briscola"' not in r)
    path = _table_file(tmp_path, cirulla_only)
    code, out = run("simulate", "matches", "--count", "1", "--vp-table", path)
    assert code == 2 and len(out.strip().splitlines()) == 1
    assert "no table for briscola" in out
