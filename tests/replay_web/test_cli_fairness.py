"""`verbale fairness` on both databases: the table, the headline, the JSON shape, the filters,
the exit codes (0 with or without a flag; 1 with --fail-on-flag and a flag; 2 for bad input)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.events import SmazzataDealt
from domain.record.events import MatchCreated, MatchEnded
from projections.fairness.selection import Selection
from replay_web import cli_fairness
from tests.projections.conftest import Backend, make_backend
from tests.projections.fairness.stores import stacked_by_hand
from tests.replacing import replace
from tests.replay_web.demo import run, stored_events

SEED = "5eed0000000000000000000000000001"
TEST_KEYS = {"name", "title", "method", "n", "statistic", "df", "p_value", "adjusted_p_value",
             "flagged", "verdict"}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def recorded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[Backend]:
    folder: Path = tmp_path_factory.mktemp(f"cli-fairness-{request.param}")
    for backend in make_backend(request.param, folder):
        for args in (["simulate", "matches", "--count", "6"],
                     ["simulate", "briscola", "--seed", SEED, "--players", "4"]):
            code, out, err = run(*args, "--store", "--database", backend.url)
            assert code == 0, out + err
        yield backend


def _json(backend: Backend, *args: str) -> Any:
    code, out, err = run("fairness", *args, "--json", "--database", backend.url)
    assert code == 0 and err == "", (code, out, err)
    return json.loads(out)


def _dealt(backend: Backend, game: str | None = None) -> int:
    count = 0
    for events in stored_events(backend.url).values():
        first = events[0]
        if not isinstance(first, MatchCreated) or (game and first.game != game):
            continue
        if any(isinstance(e, MatchEnded) for e in events):
            count += sum(isinstance(e, SmazzataDealt) for e in events)
    return count


def test_the_json_report_counts_every_dealt_attempt(recorded: Backend) -> None:
    data = _json(recorded)
    assert data["schema"] == "verbale-fairness/2"
    verified = data["verified"]
    assert verified["deals"] == _dealt(recorded) > 0
    assert data["matches"] == 7 and data["matches_in_progress_left_out"] == 0
    names = [t["name"] for t in verified["tests"]]
    assert [d["name"] for d in verified["descriptive"]] == ["dealer-wins", "side-wins"]
    for expected in ("slots", "slot-scan", "adjacent", "runs",
                     "repeated-seeds", "repeated-decks", "event/cirulla.a-monte.tre-re",
                     "event/briscola.seme.denari"):
        assert expected in names
    assert any(n.startswith("seats/cirulla/") for n in names)
    assert any(n.startswith("event/cirulla.quindici[redeal=") for n in names)
    for test in verified["tests"]:
        assert set(test) == TEST_KEYS
        assert test["verdict"].startswith(test["title"])
    assert data["flagged"] is False and "No test flags" in data["headline"]


def test_the_filters_narrow_the_deals(recorded: Backend) -> None:
    assert _json(recorded, "--game", "briscola")["verified"]["deals"] == _dealt(
        recorded, "briscola")
    seat = _json(recorded, "--dealer", "1")
    assert 0 < seat["verified"]["deals"] < _dealt(recorded)
    assert seat["criteria"]["dealer"] == "1"
    assert _json(recorded, "--until", "2000-01-01")["verified"]["deals"] == 0
    ruled = _json(recorded, "--ruleset", "redeal=tre-re", "--game", "cirulla")
    assert ruled["criteria"]["ruleset"] == {"redeal": "tre-re"}
    names = [t["name"] for t in ruled["verified"]["tests"] if t["n"] > 0]
    assert not any("[redeal=due-assi]" in n or "[redeal=mai]" in n for n in names)


def test_the_table_and_the_headline(recorded: Backend) -> None:
    code, out, err = run("fairness", "--database", recorded.url)
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[0].startswith("Fairness of the shuffle ")
    assert lines[1].startswith("Seeded deals: No test flags the ")
    assert any(line.startswith("Per dealer: ") for line in lines)
    header = next(line for line in lines if line.startswith("test "))
    assert header.split() == ["test", "n", "statistic", "p", "BH-adjusted", "p", "verdict"]
    assert any(line.startswith("slots ") for line in lines)
    assert "1521 degrees of freedom" in " ".join(out.split())
    assert "Fairness of the shuffle: " in out and "Apart: " in out


def test_a_flag_exits_0_unless_asked_to_fail(recorded: Backend,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    real = cli_fairness.select_deals

    def with_a_deal_dealt_twice(store: Any, criteria: Any, each: Any) -> Selection:
        chosen = real(store, criteria, each)
        again = replace(chosen.records[0], match="copied", smazzata=99)
        return replace(chosen, records=(*chosen.records, again))

    code, out, _ = run("fairness", "--fail-on-flag", "--database", recorded.url)
    assert code == 0 and "No test flags" in out
    monkeypatch.setattr(cli_fairness, "select_deals", with_a_deal_dealt_twice)
    code, out, _ = run("fairness", "--database", recorded.url)
    assert code == 0 and "tests flag the" in out
    assert "repeated-decks" in out and "repeated-seeds" in out
    code, out, _ = run("fairness", "--fail-on-flag", "--database", recorded.url)
    assert code == 1 and "tests flag the" in out


def test_a_dealer_who_stacks_his_15_by_hand_fails_on_flag(recorded: Backend,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # 1,000 transcribed matches, seat 0's 15 twice as frequent (issue 23): the headline names
    # it, the JSON says flagged, --fail-on-flag exits 1; --population seeded leaves it aside.
    stacked = stacked_by_hand()
    monkeypatch.setattr(cli_fairness, "select_deals", lambda store, criteria, each: stacked)
    data = _json(recorded)
    assert data["flagged"] is True and data["populations"] == ["seeded", "transcribed"]
    assert data["headline"].startswith("Transcribed (hand-shuffled) deals: ")
    assert "event/cirulla.quindici" in data["headline"]
    code, out, _ = run("fairness", "--fail-on-flag", "--database", recorded.url)
    assert code == 1
    text = " ".join(out.split())   # the headline is wrapped to the width
    assert "Transcribed (hand-shuffled) deals: " in text
    assert "event/cirulla.quindici" in text.split("Transcribed (hand-shuffled) deals: ")[1]
    code, out, _ = run("fairness", "--fail-on-flag", "--population", "seeded", "--database",
                       recorded.url)
    assert code == 0 and "nothing was tested" in out
    assert not _json(recorded, "--population", "seeded")["flagged"]


@pytest.mark.parametrize("args", [["--since", "2026-13-01"], ["--ruleset", "redeal"],
                                  ["--since", "2026-02-02", "--until", "2026-02-01"],
                                  ["--alpha", "0"], ["--dealer", " "]])
def test_bad_input_is_a_usage_problem(recorded: Backend, args: list[str]) -> None:
    code, out, err = run("fairness", *args, "--database", recorded.url)
    assert code == 2, out + err
    assert err.startswith("verbale")


QUESTIONS = {
    "en": ("Does any dealer get the 15, or another suspected event, more often than chance?",
           "Is every card equally likely at every place in the deal?"),
    "it": ("Qualche mazziere ha il 15, o un altro evento sospetto, più spesso del caso?",
           "Ogni carta ha la stessa probabilità in ogni posto della distribuzione?"),
}


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_report_reads_headline_first_then_questions_within_the_width(
        recorded: Backend, language: str) -> None:
    # issue 23 point 4: before, a test's row was one line of up to ~4,600 characters, the
    # headline came after the table, and no test said what it asks.
    code, out, err = run("--lang", language, "fairness", "--database", recorded.url)
    assert code == 0, out + err
    lines = out.splitlines()
    assert max(map(len, lines)) <= 100
    seeded = "Seeded deals: " if language == "en" else "Distribuzioni con seed: "
    first = next(k for k, line in enumerate(lines) if line.strip())
    assert lines[first + 1].startswith(seeded), lines[:4]
    text = " ".join(" ".join(line.split()) for line in lines)
    for asked in QUESTIONS[language]:
        assert asked in text
    assert text.index(seeded) < text.index(QUESTIONS[language][1])


def test_the_per_dealer_view_names_a_dealer_whose_15_is_doubled(
        recorded: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 23 point 3 through the command: a dealer "Zeno" with 1,200 deals whose 15 comes
    # twice as often is named under the headline and in the JSON; the honest ones are not.
    import numpy as np

    from tests.projections.fairness.test_dealers import _cheater, _records

    zeno = _records(_cheater(np.random.default_rng(29), 1_200, 1), "Zeno", 1, "z")
    real = cli_fairness.select_deals

    def with_zeno(store: Any, criteria: Any, each: Any) -> Selection:
        chosen = real(store, criteria, each)
        return replace(chosen, records=(*chosen.records, *zeno))

    monkeypatch.setattr(cli_fairness, "select_deals", with_zeno)
    code, out, err = run("fairness", "--database", recorded.url)
    assert code == 0, out + err
    assert max(map(len, out.splitlines())) <= 100
    head = " ".join(" ".join(out.split("\n\n", 1)[0].split()).split())
    assert "Per dealer: " in head and "Zeno cirulla.quindici[redeal=mai]" in head
    data = _json(recorded)
    flagged = data["verified"]["dealers"]["flagged"]
    assert ["Zeno", "cirulla.quindici[redeal=mai]"] in flagged
    assert {dealer for dealer, _ in flagged} == {"Zeno"}
