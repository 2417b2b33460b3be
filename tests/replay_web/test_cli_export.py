"""`verbale export`: the JSON lines clean on standard output or written whole to `-o FILE`, and
the head hash said at the end (on standard error, or on standard output for a file)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner, Result

from projections.auditor.audit import audit_lines
from replay_web.cli import _register, cli
from tests.projections.conftest import Backend
from tests.projections.store.tampering import Tamperer


def run(*args: str) -> Result:
    _register()
    return CliRunner().invoke(cli, ["--lang", "en", *args])


@pytest.fixture
def recorded(backend: Backend) -> str:
    """The id of one recorded match (the first of the demo set)."""
    result = run("simulate", "matches", "--count", "1", "--store", "--database", backend.url)
    assert result.exit_code == 0, result.output
    return result.stdout.split()[0]


def _summary(events: int, match: str, where: str, head: str) -> str:
    return (f"{events} events of match {match} written to {where}; head hash {head}\n")


def test_to_standard_output_the_lines_stay_clean_and_the_head_hash_goes_to_stderr(
        backend: Backend, recorded: str) -> None:
    result = run("export", "--match", recorded, "--database", backend.url)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["version"] for r in records] == list(range(1, len(lines) + 1))
    assert result.stderr == _summary(len(lines), recorded, "standard output",
                                     records[-1]["hash"])
    assert audit_lines(lines).ok


@pytest.mark.parametrize("flag", ["-o", "--output"])
def test_to_a_file_the_summary_goes_to_stdout_and_nothing_else_is_left(
        backend: Backend, recorded: str, tmp_path: Path, flag: str) -> None:
    target = tmp_path / "out" / "match.jsonl"
    target.parent.mkdir()
    result = run("export", "--match", recorded, flag, str(target), "--database", backend.url)
    assert result.exit_code == 0, result.output
    lines = target.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[-1])["hash"]
    assert result.stdout == _summary(len(lines), recorded, str(target), head)
    assert result.stderr == ""
    assert os.listdir(target.parent) == ["match.jsonl"]
    assert target.stat().st_mode & 0o777 == 0o666 & ~_umask()
    same = run("export", "--match", recorded, "--database", backend.url)
    assert same.stdout == target.read_text(encoding="utf-8")
    # The head hash is the store's head of the match.
    tamperer = Tamperer.open(backend)
    try:
        assert tamperer.head(UUID(recorded)) == (len(lines), head)
    finally:
        tamperer.conn.close()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_the_typed_options_are_in_the_export(backend: Backend, recorded: str) -> None:
    result = run("export", "--match", recorded, "--database", backend.url)
    created = json.loads(result.stdout.splitlines()[0])
    assert created["class_version"] == 3
    assert type(created["data"]["match_format"]["length"]) is int
    assert created["data"]["match_format"]["ko"] in (True, False)


def test_a_failed_write_leaves_nothing_and_an_existing_file_keeps_its_bytes(
        backend: Backend, recorded: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "match.jsonl"
    target.write_text("earlier export\n", encoding="utf-8")

    def full_disk(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full_disk)
    result = run("export", "--match", recorded, "-o", str(target), "--database", backend.url)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"verbale: cannot write {target}: No space left on device\n"
    assert target.read_text(encoding="utf-8") == "earlier export\n"
    assert sorted(os.listdir(tmp_path)) == sorted(["match.jsonl", *_store_files(backend)])


def _store_files(backend: Backend) -> list[str]:
    if backend.path is None:
        return []
    return [p.name for p in backend.path.parent.iterdir() if p.name.startswith(backend.path.name)]


def test_a_missing_directory_is_one_line_and_exit_1(backend: Backend, recorded: str,
                                                   tmp_path: Path) -> None:
    target = tmp_path / "missing" / "match.jsonl"
    result = run("export", "--match", recorded, "-o", str(target), "--database", backend.url)
    assert result.exit_code == 1
    assert result.stderr == f"verbale: cannot write {target}: No such file or directory\n"
    assert not target.parent.exists()


def test_an_unknown_match_is_a_usage_problem_and_writes_nothing(
        backend: Backend, recorded: str, tmp_path: Path) -> None:
    target = tmp_path / "match.jsonl"
    unknown = "5eed0000-0000-4000-8000-00000000dead"
    result = run("export", "--match", unknown, "-o", str(target), "--database", backend.url)
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and unknown in result.stderr
    assert result.stdout == ""
    assert not target.exists()


def test_a_head_that_is_not_the_last_event_is_said_after_the_export(
        backend: Backend, recorded: str, tmp_path: Path) -> None:
    """A store whose head names a later event than the last one stored (an end cut off): the
    export is written, and the command says so and exits 1."""
    stream = UUID(recorded)
    tamperer = Tamperer.open(backend)
    try:
        last = tamperer.rows(stream)[-1]
        tamperer.delete(last[0])
        head = tamperer.head(stream)
    finally:
        tamperer.conn.close()
    target = tmp_path / "match.jsonl"
    result = run("export", "--match", recorded, "-o", str(target), "--database", backend.url)
    assert result.exit_code == 1
    lines = target.read_text(encoding="utf-8").splitlines()
    assert len(lines) == head[0] - 1
    assert result.stdout == _summary(len(lines), recorded, str(target),
                                     json.loads(lines[-1])["hash"])
    assert result.stderr == (f"verbale: the store's head of match {recorded} is event {head[0]} "
                             f"(hash {head[1]}), not the last event exported: run 'verbale "
                             f"verify --match {recorded}'\n")


def test_many_matches_go_to_a_new_directory_with_their_heads(backend: Backend,
                                                            tmp_path: Path) -> None:
    result = run("simulate", "matches", "--count", "3", "--store", "--database", backend.url)
    assert result.exit_code == 0, result.output
    ids = sorted(line.split()[0] for line in result.stdout.splitlines())
    target = tmp_path / "every"
    result = run("export", "--all", "-o", str(target), "--database", backend.url)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in target.iterdir()) == sorted(
        [f"{i}.jsonl" for i in ids] + ["heads.txt"])
    manifest = {line.split()[0]: line.split()[1:]
                for line in (target / "heads.txt").read_text().splitlines()}
    assert sorted(manifest) == ids
    for match, (events, head) in manifest.items():
        lines = (target / f"{match}.jsonl").read_text().splitlines()
        assert len(lines) == int(events) and json.loads(lines[-1])["hash"] == head
        assert audit_lines(lines).ok
        assert f"{match}  {int(events):>5} events  head hash {head}" in result.stdout
    assert result.stdout.splitlines()[-1] == (f"3 matches exported to {target}; their head "
                                              f"hashes are in {target / 'heads.txt'}")
    games = run("export", "--game", "briscola", "-o", str(tmp_path / "none"), "--database",
                backend.url)
    assert games.exit_code == 0 and (tmp_path / "none" / "heads.txt").read_text() == ""


def test_a_directory_export_is_whole_or_absent(backend: Backend, recorded: str,
                                               tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out"
    target.mkdir()
    result = run("export", "--all", "-o", str(target), "--database", backend.url)
    assert result.exit_code == 1 and result.stderr == f"verbale: cannot write {target}: " \
        "already exists\n"
    assert list(target.iterdir()) == []
    from projections.store import export as module

    def full(*args: object) -> object:
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(module, "export_file", full)
    result = run("export", "--all", "-o", str(tmp_path / "new"), "--database", backend.url)
    assert result.exit_code == 1 and "No space left on device" in result.stderr
    assert not [p for p in tmp_path.iterdir() if "new" in p.name]   # nor its temporary twin


@pytest.mark.parametrize("args", [
    (), ("--match", "abcd", "--all", "-o", "x"), ("--all",), ("--game", "cirulla", "-o", "-")])
def test_one_match_or_a_selection_into_a_directory(args: tuple[str, ...]) -> None:
    result = run("export", *args, "--database", "sqlite:///never/read.db")
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert not Path("never").exists()
