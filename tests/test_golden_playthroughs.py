"""The golden playthroughs (issue 24, point 7): each committed file in tests/golden is played
again from its seed and must come out the same, character for character. A difference is a change
in what the engines do or show; if it is meant, regenerate the files
(`python -m tests.golden.regenerate`, tests/golden/README.md) and review their diff."""

from __future__ import annotations

import dataclasses
import difflib

import pytest

from tests.golden.playthrough import CASES, Case, playthrough

DIFF_LINES = 60


def _diff(expected: str, got: str, name: str) -> str:
    lines = list(difflib.unified_diff(expected.splitlines(), got.splitlines(),
                                      f"{name} (committed)", f"{name} (played now)",
                                      lineterm="", n=2))
    shown = "\n".join(lines[:DIFF_LINES])
    more = len(lines) - DIFF_LINES
    return shown + (f"\n... {more} more diff lines" if more > 0 else "")


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.path.name)
def test_a_playthrough_is_its_golden_file(case: Case) -> None:
    expected = case.path.read_text(encoding="utf-8")
    got = playthrough(case)
    assert got == expected, (
        "the playthrough differs from its golden file; if the change is meant, run "
        "`python -m tests.golden.regenerate` and review the diff\n"
        + _diff(expected, got, case.path.name))


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.path.name)
def test_another_seed_plays_another_smazzata(case: Case) -> None:
    """The files show play that depends on the seed (a comparison that could not fail would
    prove nothing): the same case with another seed differs from its golden file."""
    other = dataclasses.replace(case, seed=case.seed[:-2] + "ff")
    text = playthrough(other)
    assert text != case.path.read_text(encoding="utf-8")
    assert _diff(case.path.read_text(encoding="utf-8"), text, case.path.name).startswith("---")


def test_every_game_and_table_size_has_a_golden_file() -> None:
    assert {(case.game, case.players) for case in CASES} == {
        (game, players) for game in ("cirulla", "briscola") for players in (2, 4)}
