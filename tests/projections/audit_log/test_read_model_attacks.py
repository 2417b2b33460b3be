"""Issue 23, point 12, the third attack: the read-model tables changed with SQL (a winner, a
score), on SQLite and PostgreSQL, from the command line as an auditor runs it.

The record is untouched, so `verbale verify` (a check of the record) passes, and so does the
standard-library checker of a match's proof (docs/verify_checkpoint.py): the events are what
the checkpoint signed. `verify --read-models` and `verify --against` fold the record again and
name the table, the row and the column, with the record's value and the stored one (exit 1);
the reading commands and the viewer then say that the read models disagree. Lag (events not yet
folded) is named on its own and is no failure; a clean store passes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

import pytest

from tests.projections.conftest import Backend
from tests.projections.read_models.match_plans import record_unprojected
from tests.projections.read_models.tampering import flip_winner, raise_score
from tests.replay_web.test_cli_auditlog import check_alone, run, simulate


@dataclass(frozen=True)
class Audited:
    """Two demo matches stored by `verbale simulate` (read models caught up), a key and a
    checkpoint made after them."""

    backend: Backend
    matches: list[UUID]
    key: Path
    checkpoint: Path

    def verify(self, *args: str) -> tuple[int, str, str]:
        return run("verify", *args, "--database", self.backend.url)

    def against(self) -> tuple[int, str, str]:
        return self.verify("--against", str(self.checkpoint), "--public-key",
                           f"{self.key}.pub")


@pytest.fixture
def audited(backend: Backend, tmp_path: Path) -> Audited:
    matches = simulate(backend, 2)
    key = tmp_path / "audit.key"
    assert run("keygen", str(key))[0] == 0
    checkpoint = tmp_path / "cp.txt"
    code, out, err = run("checkpoint", "--key", str(key), "-o", str(checkpoint),
                         "--database", backend.url)
    assert code == 0, (out, err)
    return Audited(backend, matches, key, checkpoint)


def named(out: str, match: UUID, column: str, was: int, now: int) -> None:
    """The difference's line: table, row, column, the stored value and the record's."""
    assert (f"    rm_partite stream={match}: {column} is {now}, the record gives {was}\n"
            in out), out


def test_read_model_clean_store_passes(audited: Audited) -> None:
    code, out, err = audited.verify("--read-models")
    assert (code, err) == (0, ""), out
    assert "the read models agree with the record: " in out
    code, out, err = audited.against()
    assert (code, err) == (0, ""), out
    assert "the read models agree with the record: " in out


def test_read_model_tamper_winner_verify_passes_the_record(audited: Audited) -> None:
    """The `verify` cell: the record is intact, so verify alone passes (exit 0)."""
    flip_winner(audited.backend, str(audited.matches[0]))
    code, out, _ = audited.verify()
    assert code == 0 and "0 failed" in out and "read models" not in out


def test_read_model_tamper_winner_verify_read_models(audited: Audited) -> None:
    match = audited.matches[0]
    was, now = flip_winner(audited.backend, str(match))
    code, out, err = audited.verify("--read-models")
    assert (code, err) == (1, ""), out
    named(out, match, "winner", was, now)
    assert "the read models disagree with the record: 1 difference" in out
    assert "'verbale rebuild' folds them again from the record" in out


def test_read_model_tamper_score_verify_read_models(audited: Audited) -> None:
    match = audited.matches[1]
    was, now = raise_score(audited.backend, str(match))
    code, out, err = audited.verify("--read-models")
    assert (code, err) == (1, ""), out
    named(out, match, "score_0", was, now)


def test_read_model_tamper_winner_verify_against(audited: Audited) -> None:
    match = audited.matches[0]
    was, now = flip_winner(audited.backend, str(match))
    code, out, err = audited.against()
    assert (code, err) == (1, ""), out
    named(out, match, "winner", was, now)
    assert "the store holds the checkpoint's" in out   # the record itself is what was signed


def test_read_model_tamper_score_verify_against(audited: Audited) -> None:
    match = audited.matches[1]
    was, now = raise_score(audited.backend, str(match))
    code, out, err = audited.against()
    assert (code, err) == (1, ""), out
    named(out, match, "score_0", was, now)


def test_read_model_tamper_stdlib_verifier_sees_the_record_intact(audited: Audited,
                                                                  tmp_path: Path) -> None:
    """The standard-library checker's cell does not apply: it checks the events against the
    checkpoint, and the events are intact (the read models are not in the log)."""
    match = audited.matches[0]
    flip_winner(audited.backend, str(match))
    proof = tmp_path / "proof.json"
    code, _, err = run("prove", "--match", str(match), "--checkpoint",
                         str(audited.checkpoint), "-o", str(proof), "--database",
                         audited.backend.url)
    assert code == 0, err
    code, said = check_alone("--key", f"{audited.key}.pub", "--checkpoint",
                             str(audited.checkpoint), "--proof", str(proof))
    assert code == 0 and said.startswith("OK "), said


def test_read_model_tamper_then_reading_commands_warn(audited: Audited) -> None:
    match = audited.matches[0]
    flip_winner(audited.backend, str(match))
    assert audited.verify("--read-models")[0] == 1
    for command in (["matches"], ["scores", "--match", str(match)]):
        code, _, err = run(*command, "--database", audited.backend.url)
        assert code == 0
        assert err.startswith("verbale: the last check of the read models (verify "
                              "--read-models, "), err
        assert "found 1 difference with the record" in err and err.count("\n") == 1
    code, out, _ = run("rebuild", "--database", audited.backend.url)
    assert code == 0, out
    code, _, err = run("matches", "--database", audited.backend.url)
    assert (code, err) == (0, "")          # rebuilt: no check speaks for the new tables
    assert audited.verify("--read-models")[0] == 0


def test_read_model_lag_named(audited: Audited) -> None:
    """Events recorded with no catch-up after them: lag, named, exit 0."""
    behind = record_unprojected(audited.backend.url)
    assert behind > 0
    code, out, err = audited.verify("--read-models")
    assert (code, err) == (0, ""), out
    assert (f"the read models are {behind} events behind the record; run 'verbale project'"
            in out)
    assert "the read models agree with the record: " in out


def test_read_models_do_not_go_with_match(audited: Audited) -> None:
    code, out, err = audited.verify("--read-models", "--match", str(audited.matches[0]))
    assert (code, out) == (2, "")
    assert "--read-models compares the whole read models: it cannot be used with --match" in err
