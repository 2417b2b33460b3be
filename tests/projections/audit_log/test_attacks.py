"""The five attacks of issue 13, each made with plain SQL (or through the project's own write
path) after a checkpoint, each caught by verify_against that checkpoint, on SQLite and
PostgreSQL; events legitimately stored after the checkpoint are not a failure."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from uuid import NAMESPACE_URL, UUID, uuid5

import pytest

from domain.record.audit import Severity
from projections.audit_log.checkpoint import CheckpointError, keygen, load_private, load_public
from projections.audit_log.proofs import Made, checkpoint_store
from projections.audit_log.verify_against import Against, verify_against
from projections.store.app import MatchStore
from tests.projections.audit_log.attacks import (
    cut_back,
    forge_ruling,
    forget,
    rename_player,
    replace_match,
)
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, record_toy_match
from tests.projections.store.tampering import Tamperer

AT = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
IDS = [uuid5(NAMESPACE_URL, f"verbale:audit-log:{n}") for n in range(4)]


@dataclass(frozen=True)
class Setting:
    store: MatchStore
    backend: Backend
    keys: Path
    made: Made
    matches: list[UUID]

    def check(self) -> Against:
        return verify_against(self.store, self.made.signed,
                              load_public(self.keys.with_name(self.keys.name + ".pub")),
                              self.made.heads)


@pytest.fixture
def setting(store: MatchStore, backend: Backend, tmp_path: Path) -> Iterator[Setting]:
    matches = [record_toy_match(store, 200 + n, match=IDS[n]).stream for n in range(3)]
    keys = keygen(tmp_path / "audit.key").private
    made = checkpoint_store(store, load_private(keys), AT)
    yield Setting(store, backend, keys, made, matches)


@pytest.fixture
def tamperer(setting: Setting) -> Iterator[Tamperer]:
    t = Tamperer.open(setting.backend)
    yield t
    t.conn.close()


def _kinds(found: Against) -> set[tuple[UUID | None, str]]:
    return {(f.stream, f.kind) for f in found.findings}


def _failed_root(found: Against) -> None:
    assert found.failed and not found.root_holds
    assert (None, "root") in _kinds(found)


def test_the_untouched_store_holds_and_later_events_are_only_counted(setting: Setting) -> None:
    held = setting.check()
    assert held.root_holds and not held.findings and held.appended == 0
    later = record_toy_match(setting.store, 250, match=IDS[3], stop_after=5)
    after = setting.check()
    assert after.root_holds and not after.failed and not after.findings
    assert after.appended == later.state.version and after.new_streams == 1


def test_a_match_cut_back_with_its_head_moved_back(setting: Setting,
        tamperer: Tamperer) -> None:
    match = setting.matches[1]
    cut_back(tamperer, match)
    found = setting.check()
    _failed_root(found)
    assert (match, "truncated") in _kinds(found)


def test_a_match_deleted_with_its_head(setting: Setting,
        tamperer: Tamperer) -> None:
    match = setting.matches[0]
    forget(tamperer, match)
    found = setting.check()
    _failed_root(found)
    assert (match, "vanished") in _kinds(found)
    assert (None, "missing") in _kinds(found)


def test_players_renamed_with_every_hash_recomputed(setting: Setting,
        tamperer: Tamperer) -> None:
    match = setting.matches[2]
    rename_player(tamperer, match)
    found = setting.check()
    _failed_root(found)
    assert {(match, "changed")} == {k for k in _kinds(found) if k[0] is not None}


def test_another_match_stored_under_the_same_id(setting: Setting,
        tamperer: Tamperer) -> None:
    match = setting.matches[1]
    replace_match(tamperer, match, lambda m: record_toy_match(setting.store, 999, match=m))
    found = setting.check()
    _failed_root(found)
    assert (match, "changed") in _kinds(found)


def test_a_ruling_and_a_new_result_appended_through_decide(setting: Setting) -> None:
    match = setting.matches[0]
    appended = forge_ruling(setting.store, match, AT, BY)
    found = setting.check()
    assert found.root_holds and found.appended == appended == 2
    [reopened] = found.findings
    assert (reopened.stream, reopened.kind, reopened.severity) == (
        match, "reopened", Severity.FINDING)
    assert "RulingRecorded, MatchEnded" in reopened.message


def test_without_the_heads_a_change_is_still_caught(setting: Setting,
        tamperer: Tamperer) -> None:
    t = tamperer
    rows = t.rows(setting.matches[2])
    with t.batch():
        t.delete(rows[-1][0])
    found = verify_against(setting.store, setting.made.signed,
                           load_public(setting.keys.with_name("audit.key.pub")))
    _failed_root(found)
    assert all(f.stream is None for f in found.findings)


def test_a_checkpoint_of_another_key_or_other_heads_is_refused(setting: Setting,
                                                               tmp_path: Path) -> None:
    other = keygen(tmp_path / "other.key").public
    with pytest.raises(CheckpointError, match="signed by key"):
        verify_against(setting.store, setting.made.signed, load_public(other), setting.made.heads)
    lines = setting.made.heads.splitlines(keepends=True)
    with pytest.raises(CheckpointError, match="not the ones the checkpoint signed"):
        verify_against(setting.store, setting.made.signed,
                       load_public(setting.keys.with_name("audit.key.pub")), "".join(lines[1:]))
