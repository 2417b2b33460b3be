"""`verbale audit TOURNAMENT.jsonl [--match MATCH.jsonl ...]`: the outside auditor's check of a
card-game tournament's seed commitment (docs/shuffle.md section 15) on real exports, tampered
ones included."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from replay_web.cli import _register, cli
from tests.replay_web.test_cli_audit import rechain, write


@dataclass(frozen=True)
class Exported:
    tournament: Path
    matches: dict[str, Path]            # match id -> its export, every match of round 1

    def records(self, path: Path) -> list[dict[str, Any]]:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def run(*args: str) -> Result:
    _register()
    return CliRunner().invoke(cli, ["--lang", "en", *args])


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Exported]:
    folder = tmp_path_factory.mktemp("tournament")
    url = f"sqlite:///{folder / 'verbale.db'}"
    assert run("simulate", "matches", "--count", "8", "--store", "--database", url).exit_code == 0
    listed = run("verify", "--database", url).output
    [cirulla] = [line.split()[0] for line in listed.splitlines()
                 if "tournament Torneo dimostrativo di cirulla" in line]
    tournament = folder / "torneo.jsonl"
    assert run("export", "--match", cirulla, "--database", url, "-o", str(tournament)
               ).exit_code == 0
    scheduled = [r["data"] for r in map(json.loads, tournament.read_text().splitlines())
                 if r["type"] == "MatchScheduled" and r["data"]["round"] == 1]
    matches = {}
    for entry in scheduled:
        path = folder / f"{entry['match']}.jsonl"
        assert run("export", "--match", entry["match"], "--database", url, "-o", str(path)
                   ).exit_code == 0
        matches[entry["match"]] = path
    yield Exported(tournament, matches)


def test_the_sessions_hold_and_each_match_given_is_compared(exported: Exported) -> None:
    alone = run("audit", str(exported.tournament))
    assert alone.exit_code == 0, alone.output
    assert "sessions    OK       2500 sessions committed, 2 revealed" in alone.output
    first, *rest = exported.matches
    assert "must commit to match seed" in alone.output and first in alone.output
    given = run("audit", str(exported.tournament), "--match", str(exported.matches[first]))
    assert given.exit_code == 0, given.output
    assert f"match {first} must commit" not in given.output      # compared, not left to a note
    assert all(f"match {other} must commit" in given.output for other in rest)


def test_a_match_committed_to_another_seed_fails(exported: Exported, tmp_path: Path) -> None:
    match, path = next(iter(exported.matches.items()))
    records = exported.records(path)
    records[0]["data"]["match_seed_commitment"] = "ab" * 32
    forged = write(tmp_path / "forged.jsonl", rechain(records))
    result = run("audit", str(exported.tournament), "--match", str(forged))
    assert result.exit_code == 1
    assert f"round 1, table 1: match {match} commits to {'ab' * 32}" in result.output
    assert "sessions    FAILED" in result.output


def test_a_revealed_secret_changed_fails_naming_its_line(exported: Exported,
                                                          tmp_path: Path) -> None:
    records = exported.records(exported.tournament)
    [at] = [n for n, r in enumerate(records) if r["type"] == "SessionSeedRevealed"
            and r["data"]["session"] == 1]
    records[at]["data"]["secret"] = "00" * 32
    result = run("audit", str(write(tmp_path / "t.jsonl", rechain(records))))
    assert result.exit_code == 1
    assert (f"line {at + 1}: the secret of session 1 does not give its commitment"
            in result.output)
