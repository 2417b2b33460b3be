"""docs/events.md section 5 against the code: options and their standard values, breakdowns,
and what `scores` are. The document is read here, so it cannot drift from the rules."""

from __future__ import annotations

import random
import re
from dataclasses import fields
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.briscola.state import BriscolaRules
from domain.cirulla.ruleset import STANDARD, option_help
from domain.cirulla.scoring import CATEGORIES
from domain.events import SmazzataEnded
from domain.shuffle import Seed
from tests.domain.briscola.helpers import random_smazzata, seeds, table_sizes

DOC = (Path(__file__).resolve().parents[2] / "docs" / "events.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = DOC.index(f"### {title}")
    end = DOC.find("\n### ", start + 1)
    return DOC[start:end if end > 0 else None]


def _option_rows() -> dict[str, dict[str, tuple[str, set[str]]]]:
    """game -> option -> (standard, other values), from the table of section 5.1."""
    rows: dict[str, dict[str, tuple[str, set[str]]]] = {}
    for game, option, standard, others in re.findall(
            r"^\| (\w+) \| `(\w+)` \| `([^`]+)` \| ([^|]+) \|",
            _section("5.1 Ruleset options"), flags=re.M):
        rows.setdefault(game, {})[option] = (standard, set(re.findall(r"`([^`]+)`", others)))
    return rows


def test_every_cirulla_option_is_listed_with_its_standard_value_and_every_other() -> None:
    rows = _option_rows()["cirulla"]
    assert {name: standard for name, (standard, _) in rows.items()} == STANDARD.options()
    for part in option_help().split(", "):
        name, _, values = part.partition("=")
        standard, others = rows[name]
        assert {standard, *others} == set(values.split("|")), name


def test_every_briscola_option_is_listed_with_its_standard_value() -> None:
    rows = _option_rows()["briscola"]
    standard = BriscolaRules()
    assert {name: value for name, (value, _) in rows.items()} == {
        f.name: str(getattr(standard, f.name)).lower() for f in fields(BriscolaRules)}


def test_the_cirulla_categories_are_listed_in_the_order_of_the_breakdown() -> None:
    listed = re.findall(r"^\| `(\w+)` \|", _section("5.2 The breakdown"), flags=re.M)
    assert tuple(listed) == CATEGORIES


@given(seeds, table_sizes, st.booleans(), st.randoms(use_true_random=False))
@settings(max_examples=30)
def test_briscola_scores_are_the_punti_row_not_the_sum(seed: Seed, players: int,
                                                       vinco_subito: bool,
                                                       rng: random.Random) -> None:
    text = _section("5.2 The breakdown")
    played = random_smazzata(seed, players, rng, vinco_subito=vinco_subito)
    ended = played.events[-1]
    assert isinstance(ended, SmazzataEnded)
    names = [name for name, _, _ in ended.breakdown]
    assert names[:3] == ["punti", "prese", "carte"] and names[3:] in ([], ["vinco subito"])
    assert all(f"`{name}`" in text for name in names)
    assert ended.scores == ended.breakdown[0][1:]
