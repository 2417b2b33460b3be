"""docs/audit-log.md's table of attacks, cell by cell, on SQLite and PostgreSQL: each attack of
attacks.py made after a checkpoint, then judged by `verify` (the store alone), by
`verify --against` the checkpoint, and by the standard-library verifier (a proof against the
checkpoint). A cell is caught (the test names the check, finding or FAILED line), or the column
does not apply ("not its input") and the test shows what the column sees instead.

The read models' tampering (`verify --read-models`) has its own tests, in
test_read_model_attacks.py."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import pytest

from domain.record.commands import RecordRuling
from domain.record.envelope import arbiter as by_arbiter
from projections.audit_log.checkpoint import keygen, load_private, load_public
from projections.audit_log.proofs import Made, ProofError, checkpoint_store, match_proof
from projections.audit_log.verify_against import Against, verify_against
from projections.store.app import MatchStore
from projections.store.signatures import Signer, execute_signed, register_key
from projections.verify.streams import verify_store
from tests.projections.audit_log.attacks import (
    cut_back,
    cut_proof,
    demo_ruling,
    forge_ruling,
    forget,
    register_demo_key,
    rename_player,
    replace_match,
    swap_ids,
)
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, START, arbiter_signer, record_toy_match
from tests.projections.store.tampering import Tamperer

AT = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)      # the checkpoint
LATE = AT + timedelta(hours=2)                       # what is appended, dated after it
IDS = [uuid5(NAMESPACE_URL, f"verbale:attack-table:{n}") for n in range(5)]
SCRIPT = Path(__file__).parents[3] / "docs" / "verify_checkpoint.py"


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_checkpoint_table", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECKER = _checker()


@dataclass
class Scene:
    """Four ended matches (the last longer), the tests' arbiter key and the demo key in the
    record, then a checkpoint and each match's proof against it."""

    store: MatchStore
    backend: Backend
    tmp: Path
    made: Made
    matches: list[UUID]
    proofs: dict[UUID, dict[str, Any]]
    tamperer: Tamperer | None = None
    proof: dict[str, Any] | None = None    # a proof the attack changed

    @property
    def t(self) -> Tamperer:
        if self.tamperer is None:
            self.tamperer = Tamperer.open(self.backend)
        return self.tamperer

    def against(self) -> Against:
        return verify_against(self.store, self.made.signed,
                              load_public(self.tmp / "audit.key.pub"), self.made.heads)

    def check_proof(self, proof: dict[str, Any], capsys: pytest.CaptureFixture[str]
                    ) -> tuple[int, str]:
        args = ["--key", str(self.tmp / "audit.key.pub"), "--checkpoint",
                str(self.tmp / "cp.txt"), "--proof", str(self.tmp / "proof.json")]
        (self.tmp / "proof.json").write_text(json.dumps(proof), encoding="utf-8")
        capsys.readouterr()
        code = CHECKER.main(args)
        return code, capsys.readouterr().out


@pytest.fixture
def scene(store: MatchStore, backend: Backend, tmp_path: Path) -> Iterator[Scene]:
    matches = [record_toy_match(store, 200 + n, match=IDS[n]).stream for n in range(3)]
    matches.append(record_toy_match(store, 203, target=80, match=IDS[3]).stream)
    arbiter_signer(store)
    register_demo_key(store, START, BY)
    key = load_private(keygen(tmp_path / "audit.key").private)
    made = checkpoint_store(store, key, AT)
    (tmp_path / "cp.txt").write_text(made.signed.text(), encoding="utf-8")
    proofs = {m: match_proof(store, made.signed.checkpoint, m) for m in matches}
    found = Scene(store, backend, tmp_path, made, matches, proofs)
    yield found
    if found.tamperer is not None:
        found.tamperer.conn.close()


def _ruling(scene: Scene, match: UUID, signer: Signer) -> None:
    ruling = RecordRuling(arbiter=signer.arbiter, reason="ripensamento", kind="adjust-score",
                          adjustment=(0, 100), refers_to=scene.store.load(match).state.version)
    execute_signed(scene.store, match, ruling, signer, LATE, BY)


def _late_key(scene: Scene, match: UUID) -> None:
    signer = Signer.from_seed("arbitro", bytes(range(50, 82)))
    register_key(scene.store, "arbitro", signer.public_key, LATE, by_arbiter("arbitro"))
    _ruling(scene, match, signer)


def _cut_the_proof(scene: Scene, match: UUID) -> None:
    _ruling(scene, match, arbiter_signer(scene.store))    # a late ruling ...
    made = checkpoint_store(scene.store, load_private(scene.tmp / "audit.key"), LATE)
    (scene.tmp / "cp.txt").write_text(made.signed.text(), encoding="utf-8")
    scene.made = made                                     # ... in the checkpoint ...
    scene.proof = cut_proof(match_proof(scene.store, made.signed.checkpoint, match))  # ... cut


ATTACKS: dict[str, tuple[int, Callable[[Scene, UUID], object]]] = {
    # name: (the match it targets, the attack)
    "cut-back": (1, lambda s, m: cut_back(s.t, m)),
    "deleted": (0, lambda s, m: forget(s.t, m)),
    "renamed": (2, lambda s, m: rename_player(s.t, m)),
    "replaced": (1, lambda s, m: replace_match(
        s.t, m, lambda again: record_toy_match(s.store, 999, match=again))),
    "ids-swapped": (0, lambda s, m: swap_ids(s.t, m, s.matches[3])),
    "unsigned-ruling": (0, lambda s, m: forge_ruling(s.store, m, LATE, BY)),
    "late-key-ruling": (2, _late_key),
    "demo-key-ruling": (0, lambda s, m: demo_ruling(s.store, m, LATE, BY)),
    "unregistered-key-ruling": (1, lambda s, m: _ruling(
        s, m, Signer.from_seed("arbitro", bytes(range(90, 122))))),
    "back-dated-match": (4, lambda s, m: record_toy_match(s.store, 260, match=m,
                                                          start=AT - timedelta(days=1))),
    "cut-proof": (2, _cut_the_proof),
}


def _attack(scene: Scene, name: str) -> UUID:
    number, attack = ATTACKS[name]
    match = IDS[number]
    attack(scene, match)
    return match


# ---- `verify`: the store alone ----------------------------------------------------------------

VERIFY: dict[str, str | None] = {
    # caught: a failure whose message holds this text; None: not its input (verify passes)
    "cut-back": None, "deleted": None, "renamed": None, "replaced": None,
    "ids-swapped": "[identity] the record says stream",
    "unsigned-ruling": "nobody signed this ruling",
    "late-key-ruling": None,
    "demo-key-ruling": None,
    "unregistered-key-ruling": "is not a key registered for arbiter arbitro",
    "back-dated-match": None,
    "cut-proof": None,
}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_verify(scene: Scene, name: str) -> None:
    """`verify` sees one store: what it cannot tell from a consistent store (a match cut back,
    deleted, rewritten, a key someone registered, a date) is not its input."""
    match = _attack(scene, name)
    verdicts = verify_store(scene.store)
    failures = [str(p) for v in verdicts for p in v.problems if not v.ok]
    expected = VERIFY[name]
    if expected is None:
        assert all(v.ok for v in verdicts), failures
        return
    assert any(expected in f for f in failures), failures
    assert any(v.stream == match and not v.ok for v in verdicts)


# ---- `verify --against` the checkpoint ------------------------------------------------------

AGAINST: dict[str, tuple[str, str] | None] = {
    # caught: (finding kind, a text of its message) on the attacked stream; None: not its input
    "cut-back": ("truncated", "its last events were removed"),
    "deleted": ("vanished", "is gone from the store"),
    "renamed": ("changed", "are not the ones checkpointed"),
    "replaced": ("changed", "are not the ones checkpointed"),
    "ids-swapped": ("moved", "events were moved between streams"),
    "unsigned-ruling": ("reopened", "is signed by nobody"),
    "late-key-ruling": ("reopened", "registered after the checkpoint: ask who registered it"),
    "demo-key-ruling": ("reopened", "is signed by the demo key"),
    "unregistered-key-ruling": ("reopened", "which no arbiter's keys stream registers"),
    "back-dated-match": ("back-dated", "but dated before it"),
    "cut-proof": None,
}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_verify_against(scene: Scene, name: str) -> None:
    match = _attack(scene, name)
    found = scene.against()
    expected = AGAINST[name]
    if expected is None:    # the store is untouched: only the proof was cut
        assert not found.flagged and found.root_holds
        return
    kind, text = expected
    named = [f for f in found.findings if (f.stream, f.kind) == (match, kind)]
    assert named and text in named[0].message, found.findings
    assert found.flagged


# ---- the standard-library verifier: a proof against the checkpoint ---------------------------

def _store_version(scene: Scene, match: UUID) -> dict[str, Any]:
    """The proof made at the checkpoint with the match's records as the store holds them now
    (what a proof from the changed store would say)."""
    proof: dict[str, Any] = json.loads(json.dumps(scene.proofs[match]))
    now = [row.state.decode("utf-8") for row in scene.store.stored(match)]
    proof["events"] = [dict(event, record=record)
                       for event, record in zip(proof["events"], now, strict=False)]
    return proof


REWRITTEN = {"cut-back", "deleted", "renamed", "replaced", "ids-swapped"}
APPENDED = {"unsigned-ruling", "late-key-ruling", "demo-key-ruling", "unregistered-key-ruling"}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_stdlib_verifier(scene: Scene, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    match = _attack(scene, name)
    if name == "cut-proof":
        assert scene.proof is not None
        code, said = scene.check_proof(scene.proof, capsys)
        assert code == 1 and "its last events are missing" in said, said
        return
    if name == "back-dated-match":    # not its input: no checkpoint holds the match
        with pytest.raises(ProofError, match="has no event among"):
            match_proof(scene.store, scene.made.signed.checkpoint, match)
        return
    honest = scene.proofs[match]
    code, said = scene.check_proof(honest, capsys)    # the proof made at the checkpoint ...
    assert code == 0 and said.startswith("OK"), said
    if name in APPENDED:   # ... not its input: it shows the match as it stood, result and all
        assert len(honest["events"]) < scene.store.load(match).version
        assert json.loads(honest["events"][-1]["record"])["type"] == "MatchEnded"
        return
    assert name in REWRITTEN
    code, said = scene.check_proof(_store_version(scene, match), capsys)
    assert code == 1 and said.startswith("FAILED "), said
