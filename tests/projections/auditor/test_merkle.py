"""The outside auditor's Merkle proofs (projections/auditor/merkle.py, RFC 9162 written again):
the RFC 6962 paths and proofs of every small tree verify, and any changed part of one is
refused, as verbale's own tree (domain/merkle.py) refuses it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.merkle import MerkleTree, verify_consistency, verify_inclusion
from projections.auditor.merkle import consistent, inclusion_root, leaf_hash, node_hash
from tests.projections.audit_log.test_merkle import data, mth, path, subproof

EMPTY = mth([])


def test_the_hashes_are_rfc_6962_s() -> None:
    assert leaf_hash(b"a") == mth([b"a"])
    assert node_hash(leaf_hash(b"a"), leaf_hash(b"b")) == mth([b"a", b"b"])


def test_the_rfc_paths_and_proofs_of_every_tree_up_to_37_leaves_verify() -> None:
    d = data(37)
    for n in range(1, 38):
        root = mth(d[:n])
        for m in range(n):
            assert inclusion_root(leaf_hash(d[m]), m, n, path(m, d[:n])) == root, (m, n)
        for m in range(1, n + 1):
            assert consistent(m, n, mth(d[:m]), root, subproof(m, d[:n], True)), (m, n)
    assert consistent(0, 5, EMPTY, mth(d[:5]), [])
    assert not consistent(0, 5, mth(d[:1]), mth(d[:5]), [])
    assert inclusion_root(leaf_hash(d[0]), 0, 0, []) is None


def _flip(value: bytes, bit: int) -> bytes:
    changed = bytearray(value)
    changed[bit // 8 % len(changed)] ^= 1 << (bit % 8)
    return bytes(changed)


def _changed(proof: list[bytes], draw: st.DataObject) -> list[list[bytes]]:
    """The proof with one hash bent, without its last hash, and with one more."""
    bit = draw.draw(st.integers(0, 255))
    at = draw.draw(st.integers(0, len(proof) - 1))
    return [[*proof[:at], _flip(proof[at], bit), *proof[at + 1:]], proof[:-1],
            [*proof, proof[0]]]


@settings(max_examples=settings().max_examples * 2)
@given(st.integers(2, 300), st.data())
def test_a_changed_inclusion_path_is_refused_as_verbale_refuses_it(n: int,
                                                                   draw: st.DataObject) -> None:
    d = data(n)
    whole = MerkleTree.of(leaf_hash(x) for x in d)
    m = draw.draw(st.integers(0, n - 1))
    proof = list(whole.inclusion(m))
    leaf = leaf_hash(d[m])
    assert inclusion_root(leaf, m, n, proof) == whole.root
    for changed in _changed(proof, draw):
        assert inclusion_root(leaf, m, n, changed) != whole.root
        assert not verify_inclusion(leaf, m, n, changed, whole.root)
    other = draw.draw(st.integers(0, 2 * n))
    if other != m:
        assert inclusion_root(leaf, other, n, proof) != whole.root
        assert not verify_inclusion(leaf, other, n, proof, whole.root)


@settings(max_examples=settings().max_examples * 2)
@given(st.integers(2, 300), st.data())
def test_a_changed_consistency_proof_is_refused_as_verbale_refuses_it(
        n: int, draw: st.DataObject) -> None:
    d = data(n)
    whole = MerkleTree.of(leaf_hash(x) for x in d)
    m = draw.draw(st.integers(1, n - 1))
    proof = list(whole.consistency(m))
    old, new = whole.root_at(m), whole.root
    assert consistent(m, n, old, new, proof)
    bit = draw.draw(st.integers(0, 255))
    assert not consistent(m, n, _flip(old, bit), new, proof)
    assert not consistent(m, n, old, _flip(new, bit), proof)
    assert not consistent(n, m, new, old, proof)
    for changed in _changed(proof, draw):
        assert not consistent(m, n, old, new, changed)
        assert not verify_consistency(m, n, old, new, changed)
