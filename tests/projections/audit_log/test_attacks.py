"""The attacks of issues 13 and 23 (tests/projections/audit_log/attacks.py), each made with plain
SQL (or through the project's own write path) after a checkpoint, each caught by verify_against
that checkpoint, on SQLite and PostgreSQL; events legitimately stored after the checkpoint are
not a failure."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import NAMESPACE_URL, UUID, uuid5

import pytest

from domain.record.arbiter_keys import keys_stream
from domain.record.audit import Severity
from domain.record.commands import RecordRuling
from domain.record.events import MatchResumed
from domain.record.simulate import Incidents, Table, next_command
from domain.shuffle import Seed
from projections.audit_log.checkpoint import CheckpointError, keygen, load_private, load_public
from projections.audit_log.proofs import Made, checkpoint_store
from projections.audit_log.verify_against import Against, verify_against
from projections.store.app import MatchStore
from projections.store.signatures import Signer, execute_signed
from tests.projections.audit_log.attacks import (
    cut_back,
    demo_ruling,
    forge_ruling,
    forget,
    register_demo_key,
    rename_player,
    replace_match,
    swap_ids,
)
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, arbiter_signer, record_toy_match, toy_bot
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
    later = record_toy_match(setting.store, 250, match=IDS[3], stop_after=5,
                             start=AT + timedelta(minutes=1))
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


def _late_ruling(setting: Setting, match: UUID) -> Against:
    """A ruling on the ended `match`, signed by the arbiter's key, and the store compared with
    a checkpoint made before it (the key registered by then or not, as the test arranged)."""
    signer = arbiter_signer(setting.store)
    ruling = RecordRuling(arbiter=signer.arbiter, reason="punto contato due volte",
                          kind="adjust-score", adjustment=(0, -1),
                          refers_to=setting.store.load(match).state.version)
    execute_signed(setting.store, match, ruling, signer, AT, BY)
    return setting.check()


def test_a_ruling_signed_by_a_key_the_checkpoint_holds_is_a_note(setting: Setting,
                                                                 tmp_path: Path) -> None:
    arbiter_signer(setting.store)      # registered, then checkpointed
    made = checkpoint_store(setting.store, load_private(setting.keys), AT)
    anchored = Setting(setting.store, setting.backend, setting.keys, made, setting.matches)
    match = setting.matches[1]
    found = _late_ruling(anchored, match)
    [reopened] = found.findings
    assert (reopened.stream, reopened.kind, reopened.severity) == (
        match, "reopened", Severity.NOTE)
    assert "each ruling signed by a key the checkpoint holds" in reopened.message
    assert found.root_holds and not found.failed and not found.flagged


def test_a_match_resumed_by_a_signed_ruling_plays_on_as_a_note(setting: Setting) -> None:
    """The ruling annuls the smazzata that decided the match, which resumes (MatchResumed) and
    plays to a new end: only the ruling needed a signature."""
    arbiter_signer(setting.store)      # registered, then checkpointed
    made = checkpoint_store(setting.store, load_private(setting.keys), AT)
    anchored = Setting(setting.store, setting.backend, setting.keys, made, setting.matches)
    match = setting.matches[1]
    state = setting.store.load(match).state
    signer = arbiter_signer(setting.store)
    ruling = RecordRuling(arbiter=signer.arbiter, reason="carte viste", kind="annul-smazzata",
                          smazzata=state.ended[-1].number)
    loaded = execute_signed(setting.store, match, ruling, signer, AT, BY)
    assert isinstance(setting.store.facts(match)[-1].to_domain(), MatchResumed)
    table, at = Table(Seed(bytes([201 % 256, 201 // 256]) * 8), toy_bot, Incidents()), AT
    while (step := next_command(loaded.state, table, at)) is not None:
        command, at, table = step
        loaded = setting.store.execute(match, command, at, BY, loaded)
    assert loaded.state.result is not None and len(loaded.state.ended) > len(state.ended)
    found = anchored.check()
    [reopened] = found.findings
    assert (reopened.stream, reopened.kind, reopened.severity) == (
        match, "reopened", Severity.NOTE)
    assert "MatchResumed" in reopened.message and "CardPlayed" in reopened.message
    assert not found.failed and not found.flagged


def test_a_ruling_signed_by_a_key_registered_after_the_checkpoint_is_flagged(
        setting: Setting) -> None:
    match = setting.matches[2]
    found = _late_ruling(setting, match)    # the key is registered after setting's checkpoint
    by_kind = {f.kind: f for f in found.findings}
    assert set(by_kind) == {"reopened", "new-key", "back-dated"}
    # the key's registration, stored after the checkpoint, is dated START, before it
    assert by_kind["back-dated"].stream == keys_stream("arbitro")
    assert (by_kind["reopened"].stream, by_kind["reopened"].severity) == (match,
                                                                          Severity.FINDING)
    assert "registered after the checkpoint: ask who registered it" in by_kind["reopened"].message
    assert by_kind["new-key"].severity is Severity.NOTE
    assert found.flagged and not found.failed


def test_a_forged_ruling_is_flagged_as_signed_by_nobody(setting: Setting) -> None:
    match = setting.matches[0]
    forge_ruling(setting.store, match, AT, BY)
    found = setting.check()
    [reopened] = found.findings
    assert "is signed by nobody" in reopened.message and found.flagged


# ---- issue 23 -------------------------------------------------------------------------------


def test_a_ruling_signed_with_the_demo_key_is_flagged(setting: Setting) -> None:
    """The demo key is in the checkpoint (registered as `make run` registers it), but anyone
    derives it from the demo's public seed: a late ruling it signs is no arbiter's."""
    register_demo_key(setting.store, AT, BY)
    made = checkpoint_store(setting.store, load_private(setting.keys), AT)
    anchored = Setting(setting.store, setting.backend, setting.keys, made, setting.matches)
    match = setting.matches[0]
    assert demo_ruling(setting.store, match, AT + timedelta(hours=1), BY) == 2
    found = anchored.check()
    [reopened] = found.findings
    assert (reopened.stream, reopened.kind, reopened.severity) == (
        match, "reopened", Severity.FINDING)
    assert "is signed by the demo key" in reopened.message
    assert found.flagged and not found.failed


def test_a_new_match_dated_before_the_checkpoint_is_flagged(setting: Setting) -> None:
    """Stored after the checkpoint (not among its leaves), dated a day before it."""
    back = record_toy_match(setting.store, 260, match=IDS[3], start=AT - timedelta(days=1))
    found = setting.check()
    [dated] = found.findings
    assert (dated.stream, dated.kind, dated.severity) == (IDS[3], "back-dated",
                                                          Severity.FINDING)
    assert f"dated before it: {back.state.version}, the first event 1 at " in dated.message
    assert found.flagged and not found.failed and found.root_holds


def test_a_ruling_signed_by_a_key_never_registered_says_so(setting: Setting) -> None:
    match = setting.matches[1]
    loaded = setting.store.load(match)
    stranger = Signer.from_seed("arbitro", bytes(range(100, 132)))   # registered nowhere
    ruling = RecordRuling(arbiter="arbitro", reason="ripensamento", kind="adjust-score",
                          adjustment=(0, 100), refers_to=loaded.state.version)
    execute_signed(setting.store, match, ruling, stranger, AT, BY)
    found = setting.check()
    [reopened] = found.findings
    assert f"is signed by key {stranger.key[:16]}, which no arbiter's keys stream registers" \
        in reopened.message
    assert "registered after the checkpoint" not in reopened.message and found.flagged


def test_two_matches_ids_swapped_are_named_and_nothing_was_stored_since(
        setting: Setting, tamperer: Tamperer) -> None:
    first = setting.matches[0]
    second = record_toy_match(setting.store, 203, target=80, match=IDS[3]).stream
    made = checkpoint_store(setting.store, load_private(setting.keys), AT)
    anchored = Setting(setting.store, setting.backend, setting.keys, made, setting.matches)
    lengths = [setting.store.load(m).version for m in (first, second)]
    assert lengths[0] < lengths[1]
    swap_ids(tamperer, first, second)
    found = anchored.check()
    assert found.failed and found.appended == 0
    kinds = {k for k in _kinds(found) if k[0] is not None}
    assert {(first, "moved"), (second, "moved")} <= kinds
    assert all(kind not in ("reopened", "back-dated") for _, kind in kinds)
