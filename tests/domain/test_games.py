"""The game registry (domain/games.py): one Game per game, registered once, asked by name."""

from __future__ import annotations

import pytest

from domain.game import Game, RuleViolation
from domain.games import UnknownGame, game_named, games, record_catalog, register
from domain.match_format import MatchFormat, MatchFormatError, format_rules, game_names
from domain.penalty import PenaltyError, penalty_awarded
from domain.record.adapters import format_options, parse_format
from domain.record.catalog import CATALOG
from domain.record.transcription import transcriber

NAMES = [game.name for game in games()]


def test_the_built_in_games_are_registered_in_order() -> None:
    assert game_names() == ("cirulla", "briscola", "scopa")


@pytest.mark.parametrize("name", NAMES)
def test_each_game_is_one_object_named_alike_throughout(name: str) -> None:
    game = game_named(name)
    assert isinstance(game, Game)
    assert game.name == game.rules.name == game.engine.name == name
    assert CATALOG.get(name, game.rules) is game.rules
    assert format_rules(name) is game.formats


def test_a_game_is_registered_once() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        register(game_named("cirulla"))
    assert game_names() == tuple(NAMES)


def test_an_unknown_game_names_the_registered_ones() -> None:
    with pytest.raises(UnknownGame, match="cirulla, briscola, scopa"):
        game_named("tressette")
    with pytest.raises(MatchFormatError, match="expected one of cirulla, briscola, scopa"):
        MatchFormat.parse("11pt", "tressette")
    with pytest.raises(PenaltyError, match="tressette"):
        penalty_awarded("tressette", 1)


@pytest.mark.parametrize("name", NAMES)
def test_the_default_format_of_each_game_is_one_of_its_formats(name: str) -> None:
    game = game_named(name)
    fmt = MatchFormat.parse(game.default_format, name)
    assert fmt.text == game.default_format
    assert parse_format(name, format_options(fmt)) == fmt


def test_the_record_catalog_is_the_registry_s() -> None:
    assert record_catalog() == CATALOG
    assert list(CATALOG) == [game.name for game in games() if game.recorded]
    assert list(CATALOG) == ["cirulla", "briscola"]   # Scopa waits for its stored layout


def test_only_the_games_with_a_transcriber_can_be_transcribed() -> None:
    assert transcriber("cirulla") is game_named("cirulla").transcriber
    assert transcriber("briscola") is game_named("briscola").transcriber
    with pytest.raises(RuleViolation, match="scopa match cannot be transcribed"):
        transcriber("scopa")


def test_a_format_of_one_game_is_refused_by_another() -> None:
    """The per-game parts stay with each game: 'punti' is Briscola's, 7pt Cirulla's."""
    assert MatchFormat.parse("punti", "briscola").length == 1
    for game in ("cirulla", "scopa"):
        with pytest.raises(MatchFormatError, match="not understood"):
            MatchFormat.parse("punti", game)
    with pytest.raises(MatchFormatError, match="not allowed"):
        MatchFormat.parse("7pt", "scopa")
    with pytest.raises(MatchFormatError, match="Briscola rule"):
        MatchFormat.parse("21pt", "cirulla", vinco_subito=True)
