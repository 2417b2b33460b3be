"""`verbale simulate cirulla|briscola ... --store`, then `verify`, `export` and `audit` of the
match.

The seeded match is recorded through the record's own loop (`record_match`) under a stable id;
a second run finds it already recorded. The match verifies, its export carries the envelope and
the match seed commitment, and the outside auditor passes it, match seed included.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from domain.shuffle import Seed
from replay_web.cli_legal import reason_text
from tests.verbale_cli import run

SEED = "5eed0000000000000000000000000001"
HEX64 = re.compile(r"[0-9a-f]{64}")
GAMES = [("cirulla", "4", "21pt"), ("briscola", "2", "3smazzate")]


def _recorded(game: str, players: str, fmt: str, database: str) -> tuple[str, str]:
    code, out = run("simulate", game, "--seed", SEED, "--players", players, "--format", fmt,
                    "--store", "--database", database)
    assert code == 0, out
    found = re.search(r"^recorded as match (\S+)$", out, re.MULTILINE)
    assert found is not None, out
    return found.group(1), out


@pytest.mark.parametrize("game, players, fmt", GAMES)
def test_simulate_store_records_once_and_the_match_verifies_exports_and_audits(
        tmp_path: Path, game: str, players: str, fmt: str) -> None:
    database = f"sqlite:///{tmp_path}/v.db"
    match, out = _recorded(game, players, fmt, database)
    assert out.splitlines()[0].startswith(f"{match}  {game}")
    assert f" {players}p " in out.splitlines()[0]

    code, again = run("simulate", game, "--seed", SEED, "--players", players, "--format", fmt,
                      "--store", "--database", database)
    assert code == 0, again
    assert again.splitlines()[-1] == f"already recorded as match {match}"
    assert again.splitlines()[0] == out.splitlines()[0]

    code, verified = run("verify", "--match", match, "--database", database)
    assert code == 0, verified
    (line, summary, head) = verified.splitlines()
    assert line.startswith(match) and line.endswith("OK")
    assert summary.startswith("1 stream (") and "1 finished ok, 0 in progress, 0 failed" in summary
    assert re.fullmatch(rf"head of {match}: event \d+, hash [0-9a-f]{{64}}", head), head

    code, exported = run("export", "--match", match, "--database", database)
    assert code == 0, exported
    *lines, said = exported.splitlines()   # the last line (stderr): the count and head hash
    records = [json.loads(text) for text in lines]
    assert said == (f"{len(records)} events of match {match} written to standard output; "
                    f"head hash {records[-1]['hash']}")
    assert all(r["stream"] == match for r in records)
    assert all(r["recorded_by"]["kind"] == "simulator" for r in records)
    assert all(r["recorded_by"]["name"].startswith("verbale ") for r in records)
    created = records[0]
    assert created["type"] == "MatchCreated" and created["data"]["game"] == game
    commitment = created["data"]["match_seed_commitment"]
    assert HEX64.fullmatch(commitment) and commitment == Seed.from_hex(SEED).commitment()
    assert created["data"]["provenance"]["kind"] == "simulated"
    assert records[-1]["type"] == "MatchSeedRevealed" and records[-1]["data"]["seed"] == SEED
    assert [r["version"] for r in records] == list(range(1, len(records) + 1))

    path = tmp_path / f"{game}.jsonl"
    code, written = run("export", "--match", match, "--output", str(path),
                        "--database", database)
    assert code == 0 and written == (f"{len(records)} events of match {match} written to "
                                     f"{path}; head hash {records[-1]['hash']}\n")
    assert path.read_text(encoding="utf-8") == "".join(line + "\n" for line in lines)

    code, audited = run("audit", str(path))
    assert code == 0, audited
    checks = {text.split()[0] if not text.startswith("match seed") else "match seed":
              text for text in audited.splitlines() if not text.startswith(" ")}
    assert re.match(r"match seed\s+OK\s", checks["match seed"]), audited
    for name in ("chain", "seeds", "deals", "draws", "scores"):
        assert re.match(rf"{name}\s+OK\s", checks[name]), audited
    assert audited.splitlines()[-1].endswith("OK")


@pytest.mark.parametrize("game, players, fmt", GAMES)
def test_the_stored_match_is_the_match_the_log_shows(tmp_path: Path, game: str, players: str,
                                                     fmt: str) -> None:
    """The record's loop and the printed simulation play the same seeded match."""
    _, stored = _recorded(game, players, fmt, f"sqlite:///{tmp_path}/v.db")
    code, log = run("simulate", game, "--seed", SEED, "--players", players, "--format", fmt)
    assert code == 0, log
    result = re.search(r"(\d+)-(\d+) \(([^)]+)\)$", stored.splitlines()[0])
    assert result is not None
    scores = (result.group(1), result.group(2))
    reason = reason_text(result.group(3))   # stored as the domain names it, shown translated
    last = log.splitlines()[-1]
    if game == "cirulla":
        assert re.search(rf": {re.escape(reason)}; {scores[0]} - {scores[1]}$", last), last
    else:
        assert re.search(rf": {re.escape(reason)}; totals {scores[0]}-{scores[1]}$", last), last


def test_another_seed_is_another_match(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path}/v.db"
    first, _ = _recorded("briscola", "2", "3smazzate", database)
    code, out = run("simulate", "briscola", "--seed", SEED[:-1] + "2", "--players", "2",
                    "--format", "3smazzate", "--store", "--database", database)
    assert code == 0, out
    assert f"recorded as match {first}" not in out
    assert re.search(r"^recorded as match \S+$", out, re.MULTILINE)
    code, verified = run("verify", "--database", database)
    assert code == 0 and "2 streams" in verified and "0 failed" in verified
