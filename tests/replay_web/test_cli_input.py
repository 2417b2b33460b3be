"""The input the README promises to `legal` and `simulate`: cards in words, hands of 1 to 3 cards,
short excerpts of long bad input, `legal briscola`, and `--seed` optional (a fresh one printed)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner, Result

from replay_web import cli as cli_module
from replay_web.cli import cli

cli_module._register()

LONG = "settebello-di-tazze-" * 30


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["--lang", "en", *args])


def _briscola(*args: str) -> Result:
    return _run("legal", "briscola", *args)


def _one_line_exit_2(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert len(result.output.splitlines()) == 1, result.output
    return result.output


# ---- cards in words ----------------------------------------------------------------------------

def test_legal_cirulla_reads_cards_in_words_separated_by_commas() -> None:
    """README: "Italian and French words and the symbols ♦♥♣♠ are read too"; 000's example."""
    words = _run("legal", "cirulla", "--table", "quattro di coppe, sette di bastoni, due di spade",
                 "--hand", "quattro di denari")
    codes = _run("legal", "cirulla", "--table", "4c 7b 2s", "--hand", "4d")
    assert words.exit_code == 0, words.output
    assert words.output == codes.output
    assert sorted(words.output.splitlines()) == ["4d x 4c", "4d x 4c 7b"]


def test_legal_cirulla_reads_the_matta_in_words_with_its_value() -> None:
    result = _run("legal", "cirulla", "--table", "5c, 4s", "--hand", "sette di coppe=1")
    assert result.exit_code == 0 and result.output.splitlines() == ["7c x 5c 4s"]


def test_words_without_commas_are_refused_naming_the_word_and_its_place() -> None:
    out = _one_line_exit_2(_run("legal", "cirulla", "--table", "sette di denari re di coppe",
                                "--hand", "3s"))
    assert "Invalid value for --table: item 1 of 6 in the list, 'sette', is not a card" in out
    assert "separate cards written in words with commas" in out


# ---- hands and empty queries -------------------------------------------------------------------

@pytest.mark.parametrize("command", [["legal", "cirulla", "--table", "5b"],
                                     ["legal", "briscola", "--briscola", "d"]])
def test_a_hand_of_more_than_three_cards_is_refused(command: list[str]) -> None:
    out = _one_line_exit_2(_run(*command, "--hand", "asso di spade, 2s, 3s, 4s"))
    assert "Invalid value for --hand: a hand holds at most 3 cards; 4 given: As 2s 3s 4s" in out


@pytest.mark.parametrize("command", [["legal", "cirulla", "--table", "5b"],
                                     ["legal", "briscola", "--briscola", "d"]])
@pytest.mark.parametrize("hand", ["", "  ", " , "])
def test_an_empty_query_is_refused(command: list[str], hand: str) -> None:
    out = _one_line_exit_2(_run(*command, "--hand", hand))
    assert "Invalid value for --hand: no card given: the query needs the cards in hand" in out


@pytest.mark.parametrize("option", ["--table", "--hand"])
def test_a_long_bad_input_is_quoted_in_a_short_excerpt(option: str) -> None:
    args = {"--table": "5b", "--hand": "4d"}
    args[option] = LONG
    out = _one_line_exit_2(_run("legal", "cirulla", *(x for kv in args.items() for x in kv)))
    assert repr(args[option][:40] + "…") in out
    assert args[option][:41] not in out


def test_a_long_bad_seed_is_quoted_in_a_short_excerpt() -> None:
    seed = "5eed" * 100 + "!"
    out = _one_line_exit_2(_run("simulate", "cirulla", "--seed", seed))
    assert repr(seed[:40] + "…") in out and "'!' at digit 401" in out


# ---- legal briscola ----------------------------------------------------------------------------

def test_legal_briscola_lists_every_card_with_the_trick_it_would_make() -> None:
    """004: "non vi è mai l'obbligo a giocare una carta"; a briscola beats the suit led."""
    result = _briscola("--briscola", "sette di denari", "--trick", "Ac", "--hand",
                       "re di coppe, 2d, 5s")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "briscola denari; every card in hand may be played (004: \"non vi è mai l'obbligo a "
        "giocare una carta\")",
        "Rc: Ac takes the trick; 15 points in the trick",
        "2d: takes the trick; 11 points in the trick",
        "5s: Ac takes the trick; 11 points in the trick"]


def test_legal_briscola_leading_and_four_players_with_the_partner() -> None:
    lead = _briscola("--briscola", "♠", "--hand", "Rc 2d")
    assert lead.exit_code == 0, lead.output
    assert lead.output.splitlines()[1:] == ["Rc: leads; 4 points in the trick",
                                            "2d: leads; 0 points in the trick"]
    four = _briscola("--briscola", "spade", "--trick", "Ac 3c", "--hand", "Rc 2d 5s",
                     "--players", "4")
    assert four.exit_code == 0, four.output
    assert four.output.splitlines()[1:] == [
        "Rc: the partner's Ac takes the trick so far; 25 points in the trick",
        "2d: the partner's Ac takes the trick so far; 21 points in the trick",
        "5s: takes the trick so far; 21 points in the trick"]


def test_legal_briscola_json() -> None:
    result = _briscola("--briscola", "s", "--trick", "Ac 3c 2s", "--hand", "Rc 5s",
                       "--players", "4", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [
        {"card": "Rc", "notation": "Rc", "takes": False, "taking": "2s", "points": 25},
        {"card": "5s", "notation": "5s", "takes": True, "taking": "5s", "points": 21}]


@pytest.mark.parametrize(("args", "words"), [
    (("--briscola", "tazze", "--hand", "Rc"),
     "Invalid value for --briscola: 'tazze' is neither a suit nor a card"),
    (("--briscola", "d", "--trick", "Ac 3c", "--hand", "Rc"),
     "Invalid value for --trick: with 2 players at most 1 card is played before the last play; "
     "2 given"),
    (("--briscola", "d", "--trick", "Ac 3c 4c 5c", "--hand", "Rc", "--players", "4"),
     "with 4 players at most 3 cards are played before the last play; 4 given"),
    (("--briscola", "d", "--trick", "Ac", "--hand", "Ac"),
     "card Ac is both in the trick and in the hand"),
    (("--briscola", "d", "--trick", "Ac Ac", "--hand", "Rc", "--players", "4"),
     "card Ac is listed twice"),
    (("--briscola", "d", "--hand", "Rc 9x"), "item 2 of 2 in the list, '9x', is not a card"),
])
def test_legal_briscola_refuses_bad_input_in_one_line(args: tuple[str, ...], words: str) -> None:
    assert words in _one_line_exit_2(_briscola(*args))


def test_the_face_up_briscola_may_be_in_the_hand() -> None:
    """The last draw of the smazzata takes the face-up briscola card into a hand (004)."""
    result = _briscola("--briscola", "7d", "--hand", "7d")
    assert result.exit_code == 0 and result.output.splitlines()[1:] == [
        "7d: leads; 0 points in the trick"]


# ---- --seed optional ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["cirulla", "briscola"])
def test_without_seed_a_fresh_one_is_printed_first_and_replays_the_match(game: str) -> None:
    fresh = _run("simulate", game, "--format", "1smazzate")
    assert fresh.exit_code == 0, fresh.output
    first, rest = fresh.output.split("\n", 1)
    found = re.fullmatch(r"match seed: ([0-9a-f]{32}) \(fresh, random; --seed \1 replays this "
                         r"match\)", first)
    assert found is not None, first
    again = _run("simulate", game, "--format", "1smazzate", "--seed", found[1])
    assert again.exit_code == 0 and again.output == rest
    other = _run("simulate", game, "--format", "1smazzate")
    assert other.output.split("\n", 1)[0] != first
