"""`verbale simulate briscola`: the log, the result and the refusals of bad arguments."""

from __future__ import annotations

import re

from click.testing import CliRunner, Result

import replay_web.cli_briscola  # noqa: F401  (registers the command)
from replay_web.cli import cli

SEED = "5eed0000000000000000000000000001"


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["simulate", "briscola", *args])


def test_a_two_player_match_prints_deal_briscola_tricks_draws_and_result() -> None:
    result = _run("--seed", SEED, "--players", "2", "--format", "3smazzate")
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"^commitment of the match seed: [0-9a-f]{64}$", out, re.MULTILINE)
    assert "players: seat 1 (Anna), seat 2 (Bruno)" in out
    assert re.search(r"== Smazzata 1: mazziere seat [12] \((Anna|Bruno)\), commitment "
                     r"[0-9a-f]{16}…", out)
    assert re.search(r"^   seat 1 \(Anna\): (\w\w ?){3}$", out, re.MULTILINE)
    assert re.search(r"briscola: \w{2} \((denari|coppe|bastoni|spade)\)", out)
    assert re.search(r"mano 20: [12]:\w{2} [12]:\w{2} -> taken by seat [12] \(\+\d+; \d+-\d+\)",
                     out)
    assert re.search(r"draws: [12]:\w{2} [12]:\w{2}", out)
    assert re.search(r"end of smazzata 1: card points \d+-\d+, prese \d+-\d+, cards \d+-\d+", out)
    assert re.search(r"Match (won by side [12] \((Anna|Bruno)\)|drawn): ", out)
    assert "seat 0" not in out and "side 0" not in out and not re.search(r"\b0:", out)
    assert not re.search(r"\b(linea|lato|posto|seme|Partita)\b", out)
    assert out == _run("--seed", SEED, "--players", "2", "--format", "3smazzate").output


def test_four_players_play_ten_tricks_in_pairs() -> None:
    result = _run("--seed", SEED, "--players", "4", "--format", "punti", "--ko")
    assert result.exit_code == 0, result.output
    assert ("side 1: seats 1 and 3 (Anna and Carla); side 2: seats 2 and 4 (Bruno and Dario) "
            "(partners sit opposite)") in result.output
    assert "mano 10:" in result.output and "mano 11:" not in result.output
    assert re.search(r"Match (won by side [12] \((Anna and Carla|Bruno and Dario)\)|drawn): ",
                     result.output)


def test_vinco_subito_is_shown_in_the_result() -> None:
    result = _run("--seed", SEED, "--format", "punti", "--vinco-subito")
    assert result.exit_code == 0, result.output
    assert "vinco subito" in result.output


def test_carte_francesi_quadri_cuori_fiori_picche() -> None:
    """004: "E' anche possibile selezionare le carte francesi ..."; "denari = quadri ♦, coppe =
    cuori ♥, bastoni = fiori ♣, spade = picche ♠"."""
    result = _run("--seed", SEED, "--style", "french")
    assert result.exit_code == 0, result.output
    briscola = re.search(r"briscola: (\w+)([♦♥♣♠]) \(([♦♥♣♠]) (\w+)\)", result.output)
    assert briscola is not None
    names = {"♦": "quadri", "♥": "cuori", "♣": "fiori", "♠": "picche"}
    assert briscola[2] == briscola[3] and names[briscola[2]] == briscola[4]
    assert not re.search(r"\d:\w[dcbs]\b", result.output)


def test_bad_seed_format_or_players_exit_2_with_a_clear_message() -> None:
    """Among them 004's "il numero di smazzate deve sempre essere dispari"."""
    not_hex = _run("--seed", "xyz")
    assert not_hex.exit_code == 2 and "not hexadecimal ('x' at digit 1)" in not_hex.output
    short = _run("--seed", "abcd")
    assert short.exit_code == 2 and "at least 128 bits (32 hex digits)" in short.output
    odd = _run("--seed", SEED + "1")
    assert odd.exit_code == 2 and "has an odd number of hex digits (33)" in odd.output
    even = _run("--seed", SEED, "--format", "2smazzate")
    assert even.exit_code == 2 and "--format" in even.output and "odd" in even.output
    three = _run("--seed", SEED, "--players", "3")
    assert three.exit_code == 2


def test_pari_plays_an_even_number_of_smazzate() -> None:
    """004 prints a "2 smazzate" VP column beside "il numero di smazzate deve sempre essere
    dispari": `--pari` allows 2 smazzate; without it 2 is refused (above)."""
    result = _run("--seed", SEED, "--players", "4", "--format", "2smazzate", "--pari", "--vp")
    assert result.exit_code == 0, result.output
    assert "an even number of smazzate" in result.output
    assert "== Smazzata 2:" in result.output
    odd = _run("--seed", SEED, "--format", "3smazzate", "--pari")
    assert odd.exit_code == 2 and "smazzate_pari" in odd.output


def test_a_format_with_no_vp_column_says_so_when_created() -> None:
    """004's VP table has columns for 1, 2 and 3 smazzate only: with `--vp` 5 smazzate are
    refused; a friendly match of 5 smazzate is played, with a note."""
    refused = _run("--seed", SEED, "--format", "5smazzate", "--vp")
    assert refused.exit_code == 2 and "no VP column" in refused.output
    friendly = _run("--seed", SEED, "--format", "5smazzate")
    assert friendly.exit_code == 0, friendly.output
    assert "note: no VP column" in friendly.output
