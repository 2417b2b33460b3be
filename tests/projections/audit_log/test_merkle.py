"""The Merkle tree against the RFC 6962 definitions written out recursively, here, on small trees;
proofs checked by the RFC 9162 algorithms, and refused once any part of them is changed."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from projections.audit_log.merkle import (
    EMPTY_ROOT,
    Compact,
    MerkleTree,
    leaf_hash,
    root_from_inclusion,
    root_of,
    verify_consistency,
    verify_inclusion,
)


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _k(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(d: list[bytes]) -> bytes:
    if not d:
        return _h(b"")
    if len(d) == 1:
        return _h(b"\x00" + d[0])
    k = _k(len(d))
    return _h(b"\x01" + mth(d[:k]) + mth(d[k:]))


def path(m: int, d: list[bytes]) -> list[bytes]:
    if len(d) == 1:
        return []
    k = _k(len(d))
    if m < k:
        return path(m, d[:k]) + [mth(d[k:])]
    return path(m - k, d[k:]) + [mth(d[:k])]


def subproof(m: int, d: list[bytes], whole: bool) -> list[bytes]:
    if m == len(d):
        return [] if whole else [mth(d)]
    k = _k(len(d))
    if m <= k:
        return subproof(m, d[:k], whole) + [mth(d[k:])]
    return subproof(m - k, d[k:], False) + [mth(d[:k])]


def data(n: int) -> list[bytes]:
    return [f"leaf {i}".encode() for i in range(n)]


def tree(d: list[bytes]) -> MerkleTree:
    return MerkleTree.of(leaf_hash(x) for x in d)


def test_the_empty_tree_and_one_leaf() -> None:
    assert root_of([]) == EMPTY_ROOT == _h(b"")
    assert tree([b"x"]).root == _h(b"\x00x")


def test_the_roots_agree_with_the_definition_for_every_size_up_to_70() -> None:
    d = data(70)
    whole = tree(d)
    for n in range(71):
        expected = mth(d[:n])
        assert root_of(leaf_hash(x) for x in d[:n]) == expected, n
        assert whole.root_at(n) == expected, n
        if n:
            assert tree(d[:n]).root == expected, n


@given(st.lists(st.binary(max_size=8), max_size=40), st.lists(st.binary(max_size=8),
                                                               max_size=40))
def test_a_compact_edge_extends_to_the_root_of_all_leaves(first: list[bytes],
                                                          then: list[bytes]) -> None:
    edge = Compact().extend(leaf_hash(x) for x in first)
    assert edge.root == mth(first)
    grown = edge.extend(leaf_hash(x) for x in then)
    assert (grown.size, grown.root) == (len(first) + len(then), mth(first + then))
    assert len(grown.peaks) == bin(grown.size).count("1")


def test_inclusion_paths_are_the_rfc_paths_and_verify() -> None:
    d = data(37)
    whole = tree(d)
    for n in range(1, 38):
        root = mth(d[:n])
        for m in range(n):
            proof = whole.inclusion(m, n)
            assert list(proof) == path(m, d[:n]), (m, n)
            assert verify_inclusion(leaf_hash(d[m]), m, n, proof, root)


def test_consistency_proofs_are_the_rfc_proofs_and_verify() -> None:
    d = data(37)
    whole = tree(d)
    for n in range(1, 38):
        for m in range(1, n + 1):
            proof = whole.consistency(m, n)
            assert list(proof) == subproof(m, d[:n], True), (m, n)
            assert verify_consistency(m, n, mth(d[:m]), mth(d[:n]), proof), (m, n)
    assert whole.consistency(0, 5) == ()
    assert verify_consistency(0, 5, EMPTY_ROOT, mth(d[:5]), ())


def _flip(value: bytes, bit: int) -> bytes:
    changed = bytearray(value)
    changed[bit // 8 % len(changed)] ^= 1 << (bit % 8)
    return bytes(changed)


@settings(max_examples=settings().max_examples * 2)
@given(st.integers(1, 300), st.data())
def test_a_changed_inclusion_proof_is_refused(n: int, draw: st.DataObject) -> None:
    d = data(n)
    whole = tree(d)
    m = draw.draw(st.integers(0, n - 1))
    proof = list(whole.inclusion(m))
    root, leaf = whole.root, leaf_hash(d[m])
    assert verify_inclusion(leaf, m, n, proof, root)
    bit = draw.draw(st.integers(0, 255))
    assert not verify_inclusion(_flip(leaf, bit), m, n, proof, root)
    assert not verify_inclusion(leaf, m, n, proof, _flip(root, bit))
    if proof:
        at = draw.draw(st.integers(0, len(proof) - 1))
        assert not verify_inclusion(leaf, m, n, [*proof[:at], _flip(proof[at], bit),
                                                 *proof[at + 1:]], root)
        assert not verify_inclusion(leaf, m, n, proof[:-1], root)
    assert not verify_inclusion(leaf, m, n, [*proof, root], root)
    other = draw.draw(st.integers(0, 2 * n))
    if other != m and not (other < n and d[other] == d[m]):
        assert not verify_inclusion(leaf, other, n, proof, root)
    assert root_from_inclusion(leaf, n, n, proof) is None


@settings(max_examples=settings().max_examples * 2)
@given(st.integers(2, 300), st.data())
def test_a_changed_consistency_proof_is_refused(n: int, draw: st.DataObject) -> None:
    d = data(n)
    whole = tree(d)
    m = draw.draw(st.integers(1, n - 1))
    proof = list(whole.consistency(m))
    old, new = whole.root_at(m), whole.root
    assert verify_consistency(m, n, old, new, proof)
    bit = draw.draw(st.integers(0, 255))
    assert not verify_consistency(m, n, _flip(old, bit), new, proof)
    assert not verify_consistency(m, n, old, _flip(new, bit), proof)
    at = draw.draw(st.integers(0, len(proof) - 1))
    assert not verify_consistency(m, n, old, new,
                                  [*proof[:at], _flip(proof[at], bit), *proof[at + 1:]])
    assert not verify_consistency(m, n, old, new, proof[:-1])
    assert not verify_consistency(n, m, new, old, proof)
    forked = tree([*d[:m - 1], b"forged", *d[m:]])
    assert not verify_consistency(m, n, old, forked.root, forked.consistency(m))


def test_a_tree_of_a_million_leaves_is_built_once() -> None:
    hashes = [hashlib.sha256(i.to_bytes(4, "big")).digest() for i in range(1 << 20 | 5)]
    whole = MerkleTree.of(hashes)
    assert whole.root == root_of(hashes)
    index = 777_777
    assert verify_inclusion(hashes[index], index, whole.size, whole.inclusion(index), whole.root)
    assert verify_consistency(1000, whole.size, root_of(hashes[:1000]), whole.root,
                              whole.consistency(1000))
