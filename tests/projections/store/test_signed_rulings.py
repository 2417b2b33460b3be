"""Signed rulings (issue 13; docs/events.md RulingRecorded, docs/audit-log.md "Signed rulings").

"a ruling event carries the arbiter's signature over its canonical content and the head it
extends, and `verify` checks it against the registered keys, so a ruling nobody signed is a
failure even when its chain is intact". The attack of the issue: "a ruling plus a new
`MatchEnded` appended through the project's own `decide` that flips the winner", by someone who
can write to the database and has no key: "the forged ruling [is caught] by its missing
signature". On SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import cast
from uuid import UUID, uuid4

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.demo.matches import BOTS, demo_set
from domain.record.arbiter_keys import Keyring, decide_register, evolve_keyring
from domain.record.commands import RecordRuling
from domain.record.envelope import arbiter as by_arbiter
from domain.record.events import RulingRecorded, RulingSignature
from domain.record.match import MatchState
from domain.record.simulate import Incidents, Table
from domain.shuffle import Seed
from projections.store.app import MatchStore
from projections.store.signatures import (
    Signer,
    execute_signed,
    load_keyring,
    register_key,
    signature_refusal,
)
from projections.verify.streams import verify_store
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, START, arbiter_signer, play_into
from tests.replacing import replace
from tests.verbale_cli import run

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
MATCH = UUID("5eed0000-0000-4000-8000-00000000abcd")
HEAD = "ab" * 32
ALICE = Signer.from_seed("Rossi", bytes(32))
MALLORY = Signer.from_seed("Rossi", bytes([7]) * 32)


def _keyring(*signers: Signer, at: datetime = NOW - timedelta(days=1)) -> Keyring:
    keyring = Keyring()
    for signer in signers:
        (event,) = decide_register(keyring, signer.arbiter, signer.public_key, at)
        keyring = evolve_keyring(keyring, event, at)
    return keyring


def _as_event(command: RecordRuling) -> RulingRecorded:
    return RulingRecorded(arbiter=command.arbiter, reason=command.reason, kind=command.kind,
                          smazzata=command.smazzata, adjustment=command.adjustment,
                          refers_to=command.refers_to, signature=command.signature)


rulings = st.builds(
    RecordRuling, arbiter=st.just("Rossi"), reason=st.text(min_size=1, max_size=40),
    kind=st.sampled_from(["adjust-score", "annul-smazzata"]),
    smazzata=st.none() | st.integers(0, 20),
    adjustment=st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
    refers_to=st.none() | st.integers(1, 500))


@given(ruling=rulings)
def test_a_signed_ruling_verifies_as_signed(ruling: RecordRuling) -> None:
    signed = _as_event(ALICE.sign(ruling, MATCH, HEAD))
    assert signature_refusal(signed, MATCH, HEAD, _keyring(ALICE), NOW) is None


@given(ruling=rulings, other=rulings, field=st.sampled_from(
    ["reason", "kind", "smazzata", "adjustment", "refers_to"]))
def test_any_change_of_the_content_breaks_the_signature(ruling: RecordRuling, other: RecordRuling,
                                                        field: str) -> None:
    signed = _as_event(ALICE.sign(ruling, MATCH, HEAD))
    changed = replace(signed, **{field: getattr(other, field)})
    if changed == signed:
        return   # the same value drawn twice: nothing was changed
    assert signature_refusal(changed, MATCH, HEAD, _keyring(ALICE), NOW) is not None


@given(ruling=rulings, head=st.binary(min_size=32, max_size=32).map(bytes.hex),
       match=st.uuids())
def test_another_head_or_match_breaks_the_signature(ruling: RecordRuling, head: str,
                                                    match: UUID) -> None:
    signed = _as_event(ALICE.sign(ruling, MATCH, HEAD))
    keyring = _keyring(ALICE)
    if head != HEAD:
        assert signature_refusal(signed, MATCH, head, keyring, NOW) is not None
    if match != MATCH:
        assert signature_refusal(signed, match, HEAD, keyring, NOW) is not None


@given(ruling=rulings, flip=st.integers(0, 127))
def test_another_key_or_a_changed_signature_fails(ruling: RecordRuling, flip: int) -> None:
    signed = _as_event(ALICE.sign(ruling, MATCH, HEAD))
    assert signed.signature is not None
    # A key nobody registered, even with a good signature of its own.
    assert signature_refusal(_as_event(MALLORY.sign(ruling, MATCH, HEAD)), MATCH, HEAD,
                             _keyring(ALICE), NOW) is not None
    # Alice's key id on Mallory's signature.
    forged = _as_event(MALLORY.sign(ruling, MATCH, HEAD))
    assert forged.signature is not None
    mixed = replace(forged, signature=RulingSignature(signed.signature.key,
                                                      forged.signature.value))
    assert signature_refusal(mixed, MATCH, HEAD, _keyring(ALICE), NOW) is not None
    # One hex digit of the signature changed.
    value = signed.signature.value
    digit = "0" if value[flip] != "0" else "1"
    bent = replace(signed, signature=replace(signed.signature,
                                             value=value[:flip] + digit + value[flip + 1:]))
    assert signature_refusal(bent, MATCH, HEAD, _keyring(ALICE), NOW) is not None
    # Another arbiter's ruling with Alice's key.
    assert signature_refusal(replace(signed, arbiter="Verdi"), MATCH, HEAD, _keyring(ALICE),
                             NOW) is not None


def test_a_key_counts_only_from_its_registration_to_its_revocation() -> None:
    signed = _as_event(ALICE.sign(RecordRuling("Rossi", "x", "adjust-score"), MATCH, HEAD))
    later = _keyring(ALICE, at=NOW + timedelta(seconds=1))
    assert "registered only after" in str(signature_refusal(signed, MATCH, HEAD, later, NOW))
    keyring = _keyring(ALICE)
    revoked = evolve_keyring(keyring, *_revoke(keyring), NOW)
    assert "revoked" in str(signature_refusal(signed, MATCH, HEAD, revoked, NOW))
    assert signature_refusal(signed, MATCH, HEAD, revoked, NOW - timedelta(seconds=1)) is None
    unsigned = replace(signed, signature=None)
    assert "nobody signed" in str(signature_refusal(unsigned, MATCH, HEAD, keyring, NOW))


def _revoke(keyring: Keyring) -> tuple[object, ...]:
    from domain.record.arbiter_keys import decide_revoke
    return decide_revoke(keyring, "Rossi", ALICE.key, "removed", NOW)


# ---- the store ---------------------------------------------------------------------------------

@pytest.fixture
def store(backend: Backend) -> MatchStore:
    app = MatchStore(url=backend.url)
    yield app  # type: ignore[misc]
    app.close()


SHORT = next(d for d in demo_set(Seed(b"\x7a" * 16)) if d.setup.match_format["length"] == "1"
             and len(d.setup.players) == 2 and d.setup.game == "cirulla")


def _ended_with_a_signed_ruling(store: MatchStore) -> UUID:
    """A real match (verbale verify replays it), ended, with a ruling signed by its arbiter."""
    stream = store.create_match(SHORT.setup, START, BY)
    ended = cast(MatchState, play_into(store, stream, Table(SHORT.match_seed, BOTS["cirulla"],
                                                            Incidents())).state)
    assert ended.result is not None and ended.last_at is not None
    loaded = execute_signed(store, stream, RecordRuling("arbitro", "carta scoperta",
                                                        "adjust-score", adjustment=(1, 0)),
                            arbiter_signer(store), ended.last_at + timedelta(minutes=1),
                            by_arbiter("arbitro"))
    state = cast(MatchState, loaded.state)
    assert state.result is not None and state.adjustment == (1, 0)
    return loaded.stream


def test_the_forged_ruling_is_caught_by_its_missing_signature(store: MatchStore,
                                                              backend: Backend) -> None:
    match = _ended_with_a_signed_ruling(store)
    assert all(v.ok for v in verify_store(store)), "signed rulings verify"
    state = cast(MatchState, store.load(match).state)
    assert state.result is not None and state.result.winner is not None
    loser = 1 - state.result.winner
    flip = tuple(100 if side == loser else 0 for side in (0, 1))
    # The attacker: write access to the database, the project's own decide, no key.
    forged = store.execute(match, RecordRuling(arbiter="arbitro", reason="rettifica",
                                               kind="adjust-score", adjustment=flip),
                           state.last_at + timedelta(minutes=5), by_arbiter("arbitro"))
    after = cast(MatchState, forged.state)
    assert after.result is not None and after.result.winner == loser   # the winner flipped
    ruling_version = forged.version - 1                                # ruling, then MatchEnded
    (verdict,) = [v for v in verify_store(store) if v.stream == match]
    failures = [p for p in verdict.problems if p.check == "signature"]
    assert [p.version for p in failures] == [ruling_version]
    assert "nobody signed" in failures[0].message
    assert [p.check for p in verdict.problems] == ["signature"]   # the chain itself is intact
    code, out = run("verify", "--database", backend.url, "--match", str(match))
    assert code == 1
    assert f"event {ruling_version} [signature] nobody signed this ruling of arbiter arbitro" \
        in out, out


def test_a_ruling_signed_with_a_key_of_another_arbiter_fails(store: MatchStore) -> None:
    match = _ended_with_a_signed_ruling(store)
    state = cast(MatchState, store.load(match).state)
    verdi = Signer.from_seed("Verdi", bytes([9]) * 32)
    register_key(store, "Verdi", verdi.public_key, START, by_arbiter("Verdi"))
    stolen = Signer("arbitro", verdi.private_key)   # Verdi's key, signing as arbitro
    loaded = store.load(match)
    command = stolen.sign(RecordRuling("arbitro", "rettifica", "adjust-score",
                                       adjustment=(0, 5)), match, loaded.head)
    store.execute(match, command, state.last_at + timedelta(minutes=1), by_arbiter("arbitro"),
                  loaded)
    (verdict,) = [v for v in verify_store(store) if v.stream == match]
    assert [(p.version, p.check) for p in verdict.problems] == [(loaded.version + 1,
                                                                "signature")]
    assert "is not a key registered for arbiter arbitro" in verdict.problems[0].message


def test_a_signed_ruling_moved_after_another_head_fails(store: MatchStore) -> None:
    """A signature made for one point of the match, used at another: the head it extends."""
    match = _ended_with_a_signed_ruling(store)
    state = cast(MatchState, store.load(match).state)
    signer = arbiter_signer(store)
    ruling = RecordRuling("arbitro", "rettifica", "adjust-score", adjustment=(0, 2))
    old = store.load(match)
    signed = signer.sign(ruling, match, old.head)
    execute_signed(store, match, ruling, signer, state.last_at + timedelta(minutes=1),
                   by_arbiter("arbitro"))
    replayed = store.execute(match, signed, state.last_at + timedelta(minutes=2),
                             by_arbiter("arbitro"))   # the same signed ruling again
    (verdict,) = [v for v in verify_store(store) if v.stream == match]
    assert [(p.version, p.check) for p in verdict.problems] == [(replayed.version - 1,
                                                                "signature")]


def test_the_keys_stream_is_verified_and_a_key_registers_once(store: MatchStore) -> None:
    signer = arbiter_signer(store)
    arbiter_signer(store)   # again: nothing added
    loaded = load_keyring(store, "arbitro")
    assert loaded.version == 1 and cast(Keyring, loaded.state).active() == (signer.key,)
    with pytest.raises(ValueError, match="registered already"):
        register_key(store, "arbitro", signer.public_key, NOW, by_arbiter("arbitro"))
    (verdict,) = verify_store(store)
    assert verdict.category == "keys" and verdict.ok and verdict.problems == ()


def test_a_keys_stream_of_the_wrong_arbiter_fails(store: MatchStore) -> None:
    """A key written into another stream than its arbiter's is not that arbiter's key."""
    from projections.store.app import chain_facts
    from projections.store.canonical import GENESIS

    (event,) = decide_register(Keyring(), "Rossi", ALICE.public_key, NOW)
    facts, _ = chain_facts(uuid4(), 0, GENESIS, [event], NOW, by_arbiter("Rossi"))
    store._save(facts)
    (verdict,) = verify_store(store)
    assert verdict.category == "keys" and not verdict.ok
    assert "outside their keys stream" in verdict.problems[0].message


def test_the_outside_auditor_fails_a_ruling_nobody_signed(store: MatchStore) -> None:
    """The export of a match with a signed ruling, then with the forged one: the auditor of
    docs/events.md (stdlib only) counts the first signed and fails the second."""
    from projections.auditor.audit import audit_lines
    from projections.store.export import export_jsonl

    match = _ended_with_a_signed_ruling(store)
    report = audit_lines(list(export_jsonl(store, match)))
    assert report.check("rulings").status == "OK" and report.ok
    state = cast(MatchState, store.load(match).state)
    assert state.last_at is not None
    forged = store.execute(match, RecordRuling("arbitro", "rettifica", "adjust-score",
                                               adjustment=(0, 50)),
                           state.last_at + timedelta(minutes=5), by_arbiter("arbitro"))
    report = audit_lines(list(export_jsonl(store, match)))
    rulings = report.check("rulings")
    assert rulings.status == "FAILED" and not report.ok
    assert rulings.problems == (f"line {forged.version - 1}: nobody signed this ruling of "
                                "arbiter arbitro",)


@pytest.mark.parametrize(("transcribed", "by", "failure"), [
    (True, "importer", False),    # read from the paper the arbiter signed: a note
    (True, "arbiter", True),      # added to a transcribed match afterwards: unsigned, a failure
    (False, "importer", True),    # a live or simulated match has no paper to lean on
    (False, None, True),          # a record from before the envelope
])
def test_an_unsigned_transcribed_ruling_is_a_note_only_as_the_importer_wrote_it(
        transcribed: bool, by: str | None, failure: bool) -> None:
    from projections.store.signatures import KeyringCache, RulingRow, ruling_problems

    unsigned = _as_event(RecordRuling("Rossi", "x", "adjust-score"))
    keyrings = KeyringCache(cast(MatchStore, None))
    keyrings._found["Rossi"] = _keyring(ALICE)
    found = ruling_problems([RulingRow(9, HEAD, by, unsigned, NOW)], MATCH, keyrings,
                            transcribed)
    assert [(version, is_failure) for version, _, is_failure in found] == [(9, failure)]


def test_the_outside_auditor_verifies_the_signatures_with_the_keys_export(
        store: MatchStore, backend: Backend, tmp_path: Path) -> None:
    """`verbale audit MATCH.jsonl --keys KEYS.jsonl`: the signature checked by the auditor of
    docs/events.md alone; a key of another arbiter, or none, fails."""
    from domain.record.arbiter_keys import keys_stream
    from projections.auditor.audit import audit_lines
    from projections.store.export import export_jsonl

    match = _ended_with_a_signed_ruling(store)
    exported = list(export_jsonl(store, match))
    keys = list(export_jsonl(store, keys_stream("arbitro")))
    report = audit_lines(exported, keys=[keys])
    assert report.check("rulings").status == "OK", report.check("rulings").problems
    verdi = Signer.from_seed("Verdi", bytes([9]) * 32)
    register_key(store, "Verdi", verdi.public_key, START, by_arbiter("Verdi"))
    others = list(export_jsonl(store, keys_stream("Verdi")))
    rulings = audit_lines(exported, keys=[others]).check("rulings")
    assert rulings.status == "FAILED" and "is not a key of arbiter arbitro" in rulings.problems[0]
    # The command, from files.
    (tmp_path / "m.jsonl").write_text("\n".join(exported) + "\n", encoding="utf-8")
    (tmp_path / "k.jsonl").write_text("\n".join(keys) + "\n", encoding="utf-8")
    code, out = run("audit", str(tmp_path / "m.jsonl"), "--keys", str(tmp_path / "k.jsonl"))
    assert code == 0 and "the signatures verified" in out, out
