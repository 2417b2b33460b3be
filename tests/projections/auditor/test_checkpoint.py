"""docs/verify_checkpoint.py (projections/auditor/checkpoint.py in one file, test_standalone.py),
run alone (`python -I -S`: no site-packages, no project on the path), accepts the proofs the
store makes, against SQLite and PostgreSQL, and refuses changed ones; its Ed25519 is the
package's (test_ed25519.py)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from domain.record.commands import RecordRuling
from projections.audit_log.checkpoint import checkpoint_of, keygen, load_private, raw_public, sign
from projections.audit_log.proofs import checkpoint_store, consistency_proof, match_proof
from projections.store.app import MatchStore
from projections.store.signatures import execute_signed
from tests.projections.audit_log.attacks import cut_proof
from tests.projections.store.recording import BY, arbiter_signer, record_toy_match

SCRIPT = Path(__file__).parents[3] / "docs" / "verify_checkpoint.py"
AT = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_checkpoint", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECKER = _load()


def _run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), *args], cwd=tmp,
                          capture_output=True, text=True, timeout=60, check=False)


def _write(path: Path, value: Any) -> str:
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return str(path)


def test_proofs_from_the_store_check_out_alone(store: MatchStore, tmp_path: Path) -> None:
    first = record_toy_match(store, 31).stream
    key = load_private(keygen(tmp_path / "audit.key").private)
    old = checkpoint_store(store, key, AT)
    record_toy_match(store, 32, stop_after=4)
    new = checkpoint_store(store, key, AT)
    pub = str(tmp_path / "audit.key.pub")
    old_cp = _write(tmp_path / "old.txt", old.signed.text())
    new_cp = _write(tmp_path / "new.txt", new.signed.text())
    proof = match_proof(store, new.signed.checkpoint, first)
    ran = _run(tmp_path, "--key", pub, "--checkpoint", new_cp, "--proof",
               _write(tmp_path / "p.json", proof))
    assert (ran.returncode, ran.stderr) == (0, ""), ran.stdout
    assert ran.stdout.startswith(f"OK {len(proof['events'])} leaves (events 1-")
    consistency = _write(tmp_path / "c.json",
                         consistency_proof(store, old.signed.checkpoint, new.signed.checkpoint))
    ran = _run(tmp_path, "--key", pub, "--checkpoint", new_cp, "--old-checkpoint", old_cp,
               "--proof", consistency)
    assert ran.returncode == 0 and "is a prefix" in ran.stdout, ran.stdout
    swapped = _run(tmp_path, "--key", pub, "--checkpoint", old_cp, "--old-checkpoint", new_cp,
                   "--proof", consistency)
    assert swapped.returncode == 1 and swapped.stdout.startswith("FAILED"), swapped.stdout


def _changed_proofs(proof: dict[str, Any]) -> list[dict[str, Any]]:
    events = proof["events"]
    renamed = json.loads(json.dumps(proof))
    renamed["events"][0]["record"] = events[0]["record"].replace("anna", "anny")
    dropped = json.loads(json.dumps(proof))
    del dropped["events"][len(events) // 2]
    moved = json.loads(json.dumps(proof))
    moved["events"][-1]["index"] += 1
    bad_path = json.loads(json.dumps(proof))
    bad_path["events"][1]["path"][0] = "00" * 32
    other = json.loads(json.dumps(proof))
    other["match"] = "00000000-0000-0000-0000-000000000000"
    return [renamed, dropped, moved, bad_path, other]


@pytest.mark.parametrize("which", range(5))
def test_a_changed_proof_or_checkpoint_fails(store: MatchStore, tmp_path: Path,
                                             which: int) -> None:
    match = record_toy_match(store, 40).stream
    key = load_private(keygen(tmp_path / "audit.key").private)
    made = checkpoint_store(store, key, AT)
    args = ["--key", str(tmp_path / "audit.key.pub"), "--checkpoint",
            _write(tmp_path / "cp.txt", made.signed.text())]
    proof = match_proof(store, made.signed.checkpoint, match)
    assert CHECKER.main([*args, "--proof", _write(tmp_path / "p.json", proof)]) == 0
    changed = _changed_proofs(proof)[which]
    assert CHECKER.main([*args, "--proof", _write(tmp_path / "p.json", changed)]) == 1
    forged = made.signed.text().replace(f"\n{made.signed.checkpoint.size}\n",
                                        f"\n{made.signed.checkpoint.size + which + 1}\n")
    _write(tmp_path / "cp.txt", forged)
    ran = _run(tmp_path, *args)
    assert ran.returncode == 1 and "signature does not match" in ran.stdout, ran.stdout


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["format", "events", "index", "path", "record", "leaf_hash",
                         "tree_size", "old_size", "new_size", "match"]), inner, max_size=6),
    max_leaves=20)
proof_like = st.fixed_dictionaries(
    {"format": st.sampled_from(["verbale-inclusion-proof/1", "verbale-inclusion-proof/2",
                                "verbale-consistency-proof/1"]),
     "tree_size": st.just(7), "old_size": st.integers(0, 6), "new_size": st.just(7)},
    optional={"events": st.lists(st.dictionaries(st.sampled_from(
        ["index", "path", "record", "leaf_hash"]), json_values, max_size=4), max_size=3),
        "path": json_values})


@given(st.one_of(json_values, proof_like))
def test_any_other_json_fails_with_a_message_not_a_traceback(tmp_path_factory: Any,
                                                             proof: Any) -> None:
    where = tmp_path_factory.mktemp("fuzz")
    key = Ed25519PrivateKey.from_private_bytes(bytes(32))
    (where / "k.pub").write_text(raw_public(key.public_key()).hex())
    text = sign(checkpoint_of(7, bytes(32), AT), key).text()
    args = ["--key", str(where / "k.pub"), "--checkpoint", _write(where / "cp.txt", text),
            "--old-checkpoint", str(where / "cp.txt"), "--proof",
            _write(where / "p.json", proof)]
    assert CHECKER.main(args) == 1


def _ruled_proof(store: MatchStore, tmp_path: Path) -> tuple[list[str], dict[str, Any]]:
    """A match ended, then a late ruling with its restated result, then a checkpoint: the
    checker's arguments and the match's proof."""
    match = record_toy_match(store, 41).stream
    signer = arbiter_signer(store)
    ruling = RecordRuling(arbiter=signer.arbiter, reason="punto contato due volte",
                          kind="adjust-score", adjustment=(0, -1),
                          refers_to=store.load(match).state.version)
    execute_signed(store, match, ruling, signer, AT, BY)
    key = load_private(keygen(tmp_path / "audit.key").private)
    made = checkpoint_store(store, key, AT)
    args = ["--key", str(tmp_path / "audit.key.pub"), "--checkpoint",
            _write(tmp_path / "cp.txt", made.signed.text())]
    return args, match_proof(store, made.signed.checkpoint, match)


def test_a_proof_cut_before_the_late_ruling_is_refused(store: MatchStore,
                                                       tmp_path: Path) -> None:
    """Issue 23, 11: the cut proof's events are all in the tree and form one chain, but the
    checkpoint's heads say the match went on: the proof does not fix the match's result."""
    args, proof = _ruled_proof(store, tmp_path)
    types = [json.loads(e["record"])["type"] for e in proof["events"]]
    assert types[-2:] == ["RulingRecorded", "MatchEnded"]
    ran = _run(tmp_path, *args, "--proof", _write(tmp_path / "p.json", proof))
    assert ran.returncode == 0 and f"events 1-{len(types)} of" in ran.stdout, ran.stdout
    assert ", last MatchEnded), the whole match up to its head, in the checkpoint of " in \
        ran.stdout
    cut = _run(tmp_path, *args, "--proof", _write(tmp_path / "cut.json", cut_proof(proof)))
    assert cut.returncode == 1, cut.stdout
    assert cut.stdout == (f"FAILED the proof ends at event {len(types) - 2} of "
                          f"{proof['match']}; the checkpoint's heads say the match had "
                          f"{len(types)} events: its last events are missing\n")


def test_a_proof_of_the_first_format_is_refused(store: MatchStore, tmp_path: Path) -> None:
    """A proof without the heads cannot show the match whole: refused, saying so."""
    args, proof = _ruled_proof(store, tmp_path)
    old = {k: v for k, v in cut_proof(proof).items() if k != "heads"}
    old["format"] = "verbale-inclusion-proof/1"
    ran = _run(tmp_path, *args, "--proof", _write(tmp_path / "old.json", old))
    assert ran.returncode == 1
    assert ran.stdout.startswith("FAILED a proof of format verbale-inclusion-proof/1 cannot "
                                 "show that it holds every event of the match"), ran.stdout


def test_heads_that_are_not_the_signed_ones_are_refused(store: MatchStore,
                                                        tmp_path: Path) -> None:
    args, proof = _ruled_proof(store, tmp_path)
    cut = cut_proof(proof)
    record = cut["events"][-1]["record"]
    last = json.loads(record)
    moved_back = f"{last['version']} {hashlib.sha256(record.encode()).hexdigest()}"
    lines = [line if not line.startswith(last["stream"].replace("-", "")) else
             f"{line.split()[0]} {moved_back}" for line in proof["heads"].splitlines()]
    cut["heads"] = "".join(f"{line}\n" for line in lines)   # the heads moved back too
    ran = _run(tmp_path, *args, "--proof", _write(tmp_path / "cut.json", cut))
    assert ran.returncode == 1
    assert ran.stdout == "FAILED the proof's heads are not the ones the checkpoint signed\n"


def test_every_cut_of_a_proof_is_refused(store: MatchStore, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Every proof with its last events cut, or its first, each event still in the tree and
    one chain, is refused: its end is not the signed head, or its start is not event 1."""
    args, proof = _ruled_proof(store, tmp_path)
    count = len(proof["events"])
    cuts = [(0, end) for end in range(1, count)] + [(start, count) for start in range(1, count)]
    for start, end in cuts:
        sliced = dict(proof, events=proof["events"][start:end])
        assert CHECKER.main([*args, "--proof", _write(tmp_path / "s.json", sliced)]) == 1
        said = capsys.readouterr().out
        assert ("its last events are missing" in said if start == 0 else
                "not at its first" in said), (start, end, said)
