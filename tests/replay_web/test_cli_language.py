"""One language at a time (issue 9, docs/i18n.md): what `simulate` and `legal` print, the
domain's descriptions and refusals included, is English with `--lang en` and Italian with
`--lang it`, the game's own words Italian in both.

The domain builds its messages with `domain.text.say` (English, with their templates); the
command line shows them with `replay_web.i18n.translate`. Words the data stores in Italian (a
match's ending reason, the reason a deal went a monte, Briscola's breakdown rows) keep their
stored value and are mapped to a message only when shown (replay_web/cli_legal.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from click.testing import CliRunner, Result

from domain.cards import CardParseError, parse_card, parse_cards
from domain.cirulla.dealing import redeal_reason
from domain.cirulla.ruleset import STANDARD, RulesetError, ruleset_from_options
from domain.match_format import MatchFormat, MatchFormatError
from domain.shuffle import Seed, SeedError
from domain.text import Said, said_of
from replay_web import cli as cli_module
from replay_web import i18n
from replay_web.cli import cli
from replay_web.cli_briscola import breakdown_name
from replay_web.cli_legal import reason_text, redeal_text

SEED = "5eed0000000000000000000000000001"
A_MONTE_SEED = "5eed0000000000000000000000000009"   # a Cirulla deal goes a monte (2 assi)

cli_module._register()

ITALIAN = ("vince", "parità", "numero", "pari", "lato", "posto", "fisso", "obiettivo",
           "giocatore", "giocatori", "partita", "tavola", "assi", "chiude", "senza", "nessuna",
           "maggioranza", "corso", "certa", "ultima", "atteso", "non", "punti", "distribuzione",
           "impegno", "tentativo")
"""Italian words that are not game words (docs/i18n.md, docs/glossary.md)."""

ENGLISH = ("the", "side", "seat", "fixed", "wins", "won", "level", "expected", "players",
           "commitment", "attempt", "number", "even", "table", "aces", "points", "match",
           "not", "with", "and")
"""English words the Italian output must not hold."""



@pytest.fixture(autouse=True)
def _language_of_the_locale_afterwards() -> Iterator[None]:
    yield
    i18n.choose_language()
    i18n.localize(cli)


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def _words_found(text: str, words: tuple[str, ...]) -> list[str]:
    return [w for w in words if re.search(rf"(?<![\w'-]){re.escape(w)}(?![\w'-])", text,
                                          re.IGNORECASE)]


def _log(language: str, game: str, *args: str) -> str:
    result = _run("--lang", language, "simulate", game, "--seed", SEED, *args)
    assert result.exit_code == 0, result.output
    return result.output


def _bad_inputs(language: str) -> list[str]:
    """One line per refusal of `simulate` and `legal` whose words come from the domain."""
    lines = []
    for args in (("simulate", "cirulla", "--seed", "5eed"),
                 ("simulate", "cirulla", "--seed", "5eed000000000000000000000000000"),
                 ("simulate", "cirulla", "--seed", "zz" * 16),
                 ("simulate", "cirulla", "--format", "9pt"),
                 ("simulate", "cirulla", "--option", "nothing=1"),
                 ("simulate", "cirulla", "--option", "piccola_fino_al=x"),
                 ("simulate", "briscola", "--format", "2smazzate"),
                 ("simulate", "briscola", "--format", "4smazzate", "--pari", "--vp"),
                 ("legal", "cirulla", "--table", "4c 4c", "--hand", "4d"),
                 ("legal", "cirulla", "--table", "4c zz", "--hand", "4d"),
                 ("legal", "briscola", "--briscola", "zz", "--hand", "4d"),
                 ("legal", "briscola", "--briscola", "d", "--hand", "4d, sette")):
        result = _run("--lang", language, *args)
        assert result.exit_code == 2, (args, result.output)
        lines.append(result.output.strip().splitlines()[-1])
    return lines


def _without_quotes(line: str) -> str:
    """A refusal without what it quotes: the bad input, and the examples of cards in words."""
    return re.sub(r"'[^']*'|\"[^\"]*\"", "", line)


# ---- English -----------------------------------------------------------------------------------

def test_the_cirulla_log_in_english_has_no_italian_word_but_the_game_words() -> None:
    out = _log("en", "cirulla", "--players", "4", "--format", "2smazzate")
    assert "cirulla 2smazzate: a fixed number of smazzate" in out
    assert "Match won by side 2 (Bruno and Dario): smazzate played; 19 - 21" in out
    assert _words_found(out, ITALIAN) == []


def test_every_cirulla_format_and_option_is_described_in_english() -> None:
    out = _log("en", "cirulla", "--format", "21pt", "--ko", "--cappotto",
               "--cappotto-waits-end")
    assert ("cirulla 21pt: the side past the target with more points wins [KO (3 spareggi), a "
            "cappotto ends the match, a cappotto ends the match when its smazzata ends]") in out
    assert "target reached" in out
    assert _words_found(out, ITALIAN) == []


def test_a_deal_a_monte_is_explained_in_english_and_stored_in_italian() -> None:
    out = _log("en", "cirulla", "--format", "51pt").replace(SEED, "")
    result = _run("--lang", "en", "simulate", "cirulla", "--seed", A_MONTE_SEED, "--format",
                  "51pt")
    assert "a monte: 2 aces on the table" in result.output
    assert _words_found(out + result.output, ITALIAN) == []
    assert redeal_reason(tuple(parse_cards("Ad Ac 5b 7s")), STANDARD) == "2 assi in tavola"


def test_the_briscola_log_in_english_has_no_italian_word_but_the_game_words() -> None:
    out = _log("en", "briscola", "--players", "4", "--format", "3smazzate")
    assert "briscola 3smazzate: a fixed number of smazzate" in out
    assert re.search(r"end of smazzata 1: card points \d+-\d+, prese \d+-\d+, cards \d+-\d+",
                     out)
    assert "Match drawn: level at the end; totals 1-1" in out
    assert _words_found(out, ITALIAN) == []


def test_a_briscola_format_without_a_vp_column_is_described_in_english() -> None:
    result = _run("--lang", "en", "simulate", "briscola", "--seed", SEED, "--format",
                  "4smazzate", "--pari", "--vinco-subito")
    assert result.exit_code == 0, result.output
    assert ("briscola 4smazzate: a fixed number of smazzate [vinco subito, an even number of "
            "smazzate, no VP: the table has no column for it]") in result.output
    assert ("note: no VP column: the Briscola VP table of 004 has columns for 1, 2 and 3 "
            "smazzate only, not 4") in result.output
    assert _words_found(result.output, ITALIAN) == []


def test_refusals_of_bad_input_are_english() -> None:
    lines = _bad_inputs("en")
    assert any("has an odd number of hex digits (31)" in line for line in lines), lines
    assert any("unknown Cirulla option 'nothing=1'" in line for line in lines), lines
    for line in lines:
        assert _words_found(_without_quotes(line), ITALIAN) == [], line


@pytest.mark.parametrize(("stored", "english"), [
    ("in corso", "in progress"), ("parità", "level at the end"),
    ("target", "target reached"), ("punti", "points"), ("smazzate", "smazzate played"),
    ("maggioranza certa", "a majority of smazzate the other side can no longer reach"),
    ("ultima presa nel 3° spareggio",
     "the other side made the last capture of the 3rd spareggio"),
    ("spareggio 2", "spareggio 2"), ("cappotto", "cappotto"), ("vinco subito", "vinco subito"),
])
def test_each_stored_ending_reason_is_shown_in_english(stored: str, english: str) -> None:
    i18n.choose_language("en")
    assert reason_text(stored) == english


def test_stored_deal_reasons_and_breakdown_rows_are_shown_in_english() -> None:
    i18n.choose_language("en")
    assert redeal_text("3 re in tavola") == "3 kings on the table"
    assert redeal_text("2 assi in tavola") == "2 aces on the table"
    assert redeal_text("something newer") == "something newer"
    assert [breakdown_name(n) for n in ("punti", "prese", "carte", "vinco subito")] == [
        "card points", "prese", "cards", "vinco subito"]


def test_the_domain_says_its_refusals_and_descriptions_with_their_templates() -> None:
    """Each is a `Said`, so that the command line can show it in the reader's language."""
    fmt = MatchFormat.parse("3smazzate", "briscola", ko=True)
    assert isinstance(fmt.describe(), Said)
    assert fmt.describe() == "briscola 3smazzate: a fixed number of smazzate [KO (3 spareggi)]"
    refusals: list[Exception] = []
    for bad in (lambda: parse_card("zz"), lambda: Seed.from_hex("abc"),
                lambda: MatchFormat.parse("7x", "cirulla"),
                lambda: ruleset_from_options(["nothing"])):
        with pytest.raises((CardParseError, SeedError, MatchFormatError, RulesetError)) as error:
            bad()
        refusals.append(error.value)
    assert all(said_of(e) is not None for e in refusals), refusals


# ---- Italian (the translations of P3 are merged into the catalogue by the main session) -------

def test_the_cirulla_log_in_italian_has_no_english_word() -> None:
    out = _log("it", "cirulla", "--players", "4", "--format", "2smazzate", "--ko")
    assert "cirulla 2smazzate: numero fisso di smazzate [KO (3 spareggi)]" in out
    assert _words_found(out, ENGLISH) == []


def test_the_briscola_log_in_italian_has_no_english_word() -> None:
    out = _log("it", "briscola", "--players", "4", "--format", "3smazzate")
    assert "briscola 3smazzate: numero fisso di smazzate" in out
    assert "parità" in out
    assert _words_found(out, ENGLISH) == []


def test_a_deal_a_monte_is_explained_in_italian() -> None:
    result = _run("--lang", "it", "simulate", "cirulla", "--seed", A_MONTE_SEED, "--format",
                  "51pt")
    assert "a monte: 2 assi in tavola" in result.output
    assert _words_found(result.output.replace(A_MONTE_SEED, ""), ENGLISH) == []


def test_refusals_of_bad_input_are_italian() -> None:
    for line in _bad_inputs("it"):
        assert _words_found(_without_quotes(line), ENGLISH) == [], line
