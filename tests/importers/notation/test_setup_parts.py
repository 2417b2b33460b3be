"""The notation's game parts (domain/game.py NotationParts) as importers/notation/setup.py reads
them: a marker's rule and a rule's marker, and a Ruleset tag's options, asked of the registry."""

from __future__ import annotations

import pytest

from domain.games import game_named, games
from domain.text import said_of
from importers.notation import setup

WRITTEN = list(setup.GAMES)


def test_a_record_may_be_of_every_game_that_is_written_and_transcribed() -> None:
    written = tuple(g.name for g in games()
                    if g.notation is not None and g.transcriber is not None)
    assert written == setup.GAMES
    assert set(setup.GAMES) >= {"cirulla", "briscola"}


@pytest.mark.parametrize("name", WRITTEN)
def test_each_marker_names_its_rule_and_the_rule_leads_back_to_a_marker(name: str) -> None:
    notation = game_named(name).notation
    assert notation is not None and notation.markers
    for marker, rule in notation.markers:
        assert setup.rule_of_marker(name, marker) == rule
        back = setup.marker_of_rule(name, rule)
        assert setup.rule_of_marker(name, back) == rule


def test_a_rule_named_by_two_markers_is_written_with_the_last() -> None:
    assert setup.rule_of_marker("briscola", "presa-mancata") == "giocata"
    assert setup.marker_of_rule("briscola", "giocata") == "presa-sbagliata"
    assert setup.marker_of_rule("cirulla", "C16 presa obbligata") == "presa-mancata"


def test_an_unknown_marker_or_game_names_no_rule() -> None:
    assert setup.rule_of_marker("cirulla", "presa-volante") is None
    assert setup.rule_of_marker("cirulla", None) is None
    assert setup.rule_of_marker("tressette", "fuori-turno") is None
    assert setup.marker_of_rule("tressette", "turno") == "presa-sbagliata"


@pytest.mark.parametrize(("words", "vinco_subito", "expected"), [
    ((), False, "false"), ((), True, "true"), (("vinco_subito=true",), False, "true"),
    (("vinco-subito=false",), True, "false")])
def test_briscola_s_ruleset_follows_the_format_unless_the_tag_says(
        words: tuple[str, ...], vinco_subito: bool, expected: str) -> None:
    from domain.match_format import MatchFormat

    notation = game_named("briscola").notation
    assert notation is not None
    fmt = MatchFormat.parse("punti", "briscola", vinco_subito=vinco_subito)
    assert notation.ruleset(words, fmt) == {"vinco_subito": expected}


def test_briscola_s_ruleset_refuses_another_option_with_its_message() -> None:
    from domain.match_format import MatchFormat

    notation = game_named("briscola").notation
    assert notation is not None
    with pytest.raises(ValueError) as refused:
        notation.ruleset(["redeal=mai"], MatchFormat.parse("punti", "briscola"))
    said = said_of(refused.value)
    assert said is not None and said.params["option"] == "redeal=mai"


def test_cirulla_s_ruleset_is_its_options_words() -> None:
    from domain.cirulla.ruleset import ruleset_from_options
    from domain.match_format import MatchFormat

    notation = game_named("cirulla").notation
    assert notation is not None
    fmt = MatchFormat.parse("21pt", "cirulla")
    words = ["redeal=mai", "accuso=facoltativo"]
    assert notation.ruleset(words, fmt) == ruleset_from_options(words).options()
