"""`verbale simulate cirulla` and `verbale legal cirulla`: output and refusals of bad input."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner, Result

from replay_web import cli as cli_module
from replay_web.cli import cli

SEED = "5eed0000000000000000000000000001"

cli_module._register()


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def _legal(table: str, hand: str, *more: str) -> Result:
    return _run("legal", "cirulla", "--table", table, "--hand", hand, *more)


def test_simulate_prints_deal_plays_accusi_breakdown_and_winner() -> None:
    result = _run("simulate", "cirulla", "--seed", SEED, "--players", "2", "--format", "21pt")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "rules: standard (000)" in out
    assert "players: seat 1 (Anna), seat 2 (Bruno)" in out
    assert re.search(r"== Smazzata 1: mazziere seat [12] \((Anna|Bruno)\), seed [0-9a-f]{64} "
                     r"\(commitment [0-9a-f]{16}…\)", out)
    assert re.search(r"deal \(attempt [1-9]\): seat 1: (\w\w ?){3}; seat 2: ", out)
    assert re.search(r"seat [12] plays \w\w and (takes (\w\w ?)+|discards)", out)
    assert re.search(r"seat [12] declares (cirulla|decino|quindici|trenta) \(.*\): \+\d+ to "
                     r"side [12]", out)
    assert re.search(r"^   score:\s+side 1\s+side 2$", out, re.MULTILINE)
    for category in ("scope", "settebello", "primiera", "denari", "carte", "grande", "piccola",
                     "accusi", "total"):
        assert re.search(rf"^   {category}\s+\d+\s+\d+$", out, re.MULTILINE), category
    assert re.search(r"^Match won by side [12] \((Anna|Bruno)\): target reached; \d+ - \d+$", out,
                     re.MULTILINE)
    assert "seat 0" not in out and "side 0" not in out
    assert not re.search(r"\b(linea|lato|posto|seme|Vince)\b", out)
    again = _run("simulate", "cirulla", "--seed", SEED, "--players", "2", "--format", "21pt")
    assert again.output == out


def test_simulate_four_players_with_options_and_french_cards() -> None:
    """000: "E' anche possibile selezionare le carte francesi"; "denari = quadri ♦ ..."."""
    result = _run("simulate", "cirulla", "--seed", SEED, "--players", "4", "--format",
                  "2smazzate", "--option", "taverna", "--style", "french")
    assert result.exit_code == 0, result.output
    assert "seat 4" in result.output and "♦" in result.output
    assert "redeal=mai" in result.output and "accuso=obbligatorio" in result.output
    assert ("side 1: seats 1 and 3 (Anna and Carla); side 2: seats 2 and 4 (Bruno and Dario) "
            "(partners sit opposite)") in result.output
    assert "seat 0" not in result.output and "seat 5" not in result.output


def test_legal_the_example_of_000_prints_exactly_its_two_captures() -> None:
    """000: "in tavola ci sono un 4, un 7 e un 2. Se tra le carte in mano si ha un 4 è
    possibile effettuare due prese: 1) il 4 e il 7 (somma 15) 2) il 4 da solo"."""
    result = _legal("4c 7b 2s", "4d")
    assert result.exit_code == 0, result.output
    assert sorted(result.output.splitlines()) == ["4d x 4c", "4d x 4c 7b"]


def test_legal_json() -> None:
    result = _legal("4c 7b 2s", "4d", "--json")
    assert result.exit_code == 0, result.output
    plays = json.loads(result.output)
    assert sorted(plays, key=lambda p: p["notation"]) == [
        {"card": "4d", "capture": ["4c"], "notation": "4d x 4c"},
        {"card": "4d", "capture": ["4c", "7b"], "notation": "4d x 4c 7b"}]


def test_legal_a_discard_and_an_empty_table() -> None:
    """000 d): "se non ci sono carte in tavola scarta l'asso senza fare prese"."""
    result = _legal("", "Ad")
    assert result.exit_code == 0 and result.output.splitlines() == ["Ad"]


def test_legal_the_matta_with_its_value() -> None:
    """000: "in caso di cirulla il 7 di cuori vale sempre asso": `7c=1` in hand takes the whole
    table as an ace; on the table it is an ace an ace must take."""
    as_ace = _legal("5c 4s", "7c=1")
    assert as_ace.exit_code == 0 and as_ace.output.splitlines() == ["7c x 5c 4s"]
    as_seven = _legal("5c 4s", "7c")
    assert as_seven.exit_code == 0 and as_seven.output.splitlines() == ["7c"]
    on_table = _legal("7c=1 5b", "Ad")
    assert on_table.exit_code == 0 and on_table.output.splitlines() == ["Ad x 7c"]


def test_legal_with_an_option() -> None:
    """C3, `--option asso_su_asso=libero`."""
    result = _legal("Ab 5c 4s 5s", "Ad", "--option", "asso_su_asso=libero")
    assert result.exit_code == 0
    assert sorted(result.output.splitlines()) == ["Ad x 5c 4s 5s", "Ad x Ab"]


@pytest.mark.parametrize("table, hand, words", [
    ("4c 4c", "4d", "card 4c is listed twice"),
    ("4c 7b", "4c", "card 4c is both on the table and in the hand"),
    ("9x 7b", "4d", "item 1 of 2 in the list, '9x', is not a card"),
    ("4c", "Rz", "'Rz' is not a card"),
    ("5b", "7c=11", "the matta's value is a number from 1 to 10"),
    ("5b", "4d=1", "only the matta (7c) takes a value"),
    ("5b", "4d 5d 6d 7d", "a hand holds at most 3 cards; 4 given: 4d 5d 6d 7d"),
    ("5b", "", "no card given"),
])
def test_legal_bad_cards_exit_2_with_a_message(table: str, hand: str, words: str) -> None:
    result = _legal(table, hand)
    assert result.exit_code == 2
    assert words in result.output
    assert len(result.output.splitlines()) == 1


@pytest.mark.parametrize("args, words", [
    (("--seed", "xyz"), "not hexadecimal"),
    (("--seed", "5eed"), "at least 128 bits (32 hex digits); got 16 bits"),
    (("--seed", "0123456789abcdef0123456789abcdef0"), "has an odd number of hex digits (33)"),
    (("--seed", SEED, "--option", "colore=rosso"), "unknown Cirulla option"),
    (("--seed", SEED, "--format", "20pt"), "not allowed"),
    (("--seed", SEED, "--players", "3"), "Invalid value for --players"),
])
def test_simulate_bad_arguments_exit_2_with_a_message(args: tuple[str, ...], words: str) -> None:
    result = _run("simulate", "cirulla", *args)
    assert result.exit_code == 2
    assert words in result.output
