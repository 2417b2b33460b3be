"""What the record says about a match format when the match is created (CreateMatch in,
MatchCreated or a refusal out): a format with no VP column, the option `vp`, and stored formats
from before the flags `smazzate_pari` and `vp`. docs/rules-interpretations.md, "Briscola: an
even number of smazzate (the 2 smazzate VP column)"."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.match_format import (
    CIRULLA_MAX_SMAZZATE,
    CIRULLA_TARGETS,
    MatchFormat,
    MatchFormatError,
    missing_vp_column,
)
from domain.record.catalog import CATALOG, format_options, parse_format
from domain.record.commands import CreateMatch
from domain.record.decide import RecordRefused, decide
from domain.record.events import MatchCreated
from domain.record.match import evolve, initial
from domain.vp_table import match_vp, vp_split

START = datetime(2026, 11, 25, 1, 30, tzinfo=UTC)
NAMES = ("Anna", "Bruno", "Carla", "Dario")
BRISCOLA_RULESET = {"vinco_subito": "false"}
CIRULLA_RULESET: dict[str, str] = {}  # standard 000: every option at its default


def _create(game: str, options: dict[str, str], players: int) -> CreateMatch:
    ruleset = BRISCOLA_RULESET if game == "briscola" else CIRULLA_RULESET
    return CreateMatch(game=game, ruleset=ruleset, players=NAMES[:players],
                       match_format=options)


@pytest.mark.parametrize("text", ["5smazzate", "7smazzate", "4smazzate"])
@pytest.mark.parametrize("players", [2, 4])
def test_scored_by_vp_a_format_with_no_vp_column_is_refused_at_creation(text: str,
                                                                         players: int) -> None:
    """004 prints "Tabella dei Victory Points" columns "1 smazzata", "2 smazzate",
    "3 smazzate" only: a match scored by VP (`vp`) of 4, 5 or 7 smazzate is refused when it is
    created, not when its VP are first asked."""
    fmt = MatchFormat.parse(text, "briscola", smazzate_pari=text == "4smazzate")
    with pytest.raises(MatchFormatError, match="no VP column"):
        MatchFormat.parse(text, "briscola", smazzate_pari=fmt.smazzate_pari, vp=True)
    command = _create("briscola", {**format_options(fmt), "vp": "true"}, players)
    with pytest.raises(RecordRefused, match="no VP column") as refused:
        decide(initial(CATALOG), command, START)
    assert refused.value.rule == "match-setup"


@pytest.mark.parametrize("players", [2, 4])
def test_a_friendly_match_with_no_vp_column_is_created_and_says_so(players: int) -> None:
    """004: "il numero di smazzate deve sempre essere dispari" allows 5 smazzate, which the VP
    table does not cover: without `vp` the match is created, its format says it has no VP."""
    fmt = MatchFormat.parse("5smazzate", "briscola")
    (created,) = decide(initial(CATALOG), _create("briscola", format_options(fmt), players),
                        START)
    assert isinstance(created, MatchCreated)
    assert created.match_format["vp"] == "false"
    stored = parse_format("briscola", created.match_format)
    assert missing_vp_column(stored) is not None
    assert "no VP column" in (missing_vp_column(stored) or "")
    assert "no VP: the table has no column for it" in stored.describe()
    with pytest.raises(MatchFormatError, match="no VP column"):
        match_vp(stored, ())


_CIRULLA = [f"{t}pt" for t in CIRULLA_TARGETS] + [
    f"{n}smazzate" for n in range(1, CIRULLA_MAX_SMAZZATE + 1)]


@pytest.mark.parametrize("text", _CIRULLA)
@pytest.mark.parametrize("players", [2, 4])
def test_every_cirulla_format_can_be_scored_by_vp(text: str, players: int) -> None:
    """000 "Tabella dei Victory Points": a column for each of "7pt o 1 smazz." … "51pt o 6
    smazz.", so every Cirulla format may be created scored by VP."""
    fmt = MatchFormat.parse(text, "cirulla", vp=True)
    assert missing_vp_column(fmt) is None
    (created,) = decide(initial(CATALOG), _create("cirulla", format_options(fmt), players),
                        START)
    assert isinstance(created, MatchCreated) and created.match_format["vp"] == "true"
    assert parse_format("cirulla", created.match_format) == fmt
    assert vp_split(fmt, 0) == (10, 10)


_OLD_KEYS = ("kind", "length", "ko", "cappotto_ends", "vinco_subito", "target_strict",
             "vinco_subito_ends_smazzata_only")


@pytest.mark.parametrize(("game", "text"), [("briscola", "3smazzate"), ("cirulla", "21pt")])
def test_a_stored_format_without_the_new_flags_reads_them_as_false(game: str, text: str) -> None:
    """A MatchCreated stored before `smazzate_pari` and `vp` existed still replays: the two
    flags read as false, so 004's "deve sempre essere dispari" holds for it."""
    old = {key: value for key, value in format_options(MatchFormat.parse(text, game)).items()
           if key in _OLD_KEYS}
    assert set(old) == set(_OLD_KEYS)
    created = MatchCreated(game=game, ruleset=BRISCOLA_RULESET if game == "briscola"
                           else CIRULLA_RULESET, players=NAMES[:2], sides=(0, 1),
                           match_format=old, time_control=_create(game, old, 2).time_control,
                           first_dealer=0)
    state = evolve(initial(CATALOG), created, START)
    assert state.setup is not None
    assert state.setup.match_format == MatchFormat.parse(text, game)
    fmt = parse_format(game, old)
    assert (fmt.smazzate_pari, fmt.vp) == (False, False)
    two = {**old, "length": "2"} if game == "briscola" else None
    if two is not None:
        with pytest.raises(MatchFormatError, match="accepted"):
            parse_format(game, two)


def test_a_stored_flag_must_still_be_true_or_false() -> None:
    options = {**format_options(MatchFormat.parse("3smazzate", "briscola")), "vp": "si"}
    with pytest.raises(MatchFormatError, match="vp"):
        parse_format("briscola", options)
