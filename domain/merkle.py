"""The Merkle tree of RFC 6962 section 2.1 over the log's leaves, its proofs and their checks.

A leaf's hash is SHA-256(0x00 ‖ leaf bytes), an inner node's SHA-256(0x01 ‖ left ‖ right), the
hash of the empty tree SHA-256 of nothing. A tree of n > 1 leaves splits at k, the largest power
of two below n: its root is node(MTH(first k), MTH(the rest)). Built level by level (a lone last
node goes up unchanged), the same tree: `MerkleTree` keeps every level as one bytes string of
32-byte hashes, so the tree of a few million leaves costs one hash per node and 64 bytes per
leaf. Proofs follow RFC 6962 section 2.1.1 (PATH) and 2.1.2 (PROOF, SUBPROOF); their checks
follow RFC 9162 sections 2.1.3.2 and 2.1.4.2. `Compact` is the tree's right edge (one perfect
subtree per bit of its size): it extends a tree with new leaves and gives its root without
keeping the leaves.

Pure hashing, used by the audit log (projections/audit_log/, which re-exports these names from
projections/audit_log/merkle.py) and by the tournament seed commitment
(domain/record/tournament_seeds.py, docs/shuffle.md "Tournament seed commitment").
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

HASH_SIZE = 32
LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(LEAF_PREFIX + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def split_point(n: int) -> int:
    """The largest power of two smaller than n (n >= 2)."""
    return 1 << ((n - 1).bit_length() - 1)


@dataclass(frozen=True, slots=True)
class Compact:
    """A tree's right edge: the roots of its perfect subtrees, largest (leftmost) first, one per
    bit set in `size`."""

    size: int = 0
    peaks: tuple[bytes, ...] = ()

    def extend(self, hashes: Iterable[bytes]) -> Compact:
        """The edge of this tree with the leaves whose hashes are `hashes` appended."""
        size, peaks = self.size, list(self.peaks)
        for hashed in hashes:
            peaks.append(hashed)
            size += 1
            carry = size
            while carry & 1 == 0:   # each trailing zero bit of the new size: two peaks merge
                right = peaks.pop()
                peaks[-1] = node_hash(peaks[-1], right)
                carry >>= 1
        return Compact(size, tuple(peaks))

    @property
    def root(self) -> bytes:
        if not self.peaks:
            return EMPTY_ROOT
        root = self.peaks[-1]
        for peak in reversed(self.peaks[:-1]):
            root = node_hash(peak, root)
        return root


def root_of(hashes: Iterable[bytes]) -> bytes:
    """MTH of the leaves whose hashes are `hashes`, in one pass and O(log n) memory."""
    return Compact().extend(hashes).root


@dataclass(frozen=True, slots=True)
class MerkleTree:
    """Every level of a tree, leaf hashes first: `levels[h]` holds the nodes of height h, 32
    bytes each, its last node the lone one carried up when the level below was odd."""

    levels: tuple[bytes, ...]

    @classmethod
    def of(cls, hashes: Iterable[bytes]) -> MerkleTree:
        """The tree of the leaves whose hashes (32 bytes each) are `hashes`."""
        level = b"".join(hashes)
        if len(level) % HASH_SIZE:
            raise ValueError("leaf hashes must be 32 bytes each")
        levels = [level]
        while len(level) > HASH_SIZE:
            level = _next_level(level)
            levels.append(level)
        return cls(tuple(levels))

    @property
    def size(self) -> int:
        return len(self.levels[0]) // HASH_SIZE

    @property
    def root(self) -> bytes:
        return self.root_at(self.size)

    def leaf(self, index: int) -> bytes:
        return self.node(0, index)

    def node(self, height: int, index: int) -> bytes:
        level = self.levels[height]
        return level[index * HASH_SIZE:(index + 1) * HASH_SIZE]

    def root_at(self, size: int) -> bytes:
        """MTH of the first `size` leaves (an earlier tree of the same log)."""
        self._check_size(size)
        return EMPTY_ROOT if size == 0 else self.range_root(0, size)

    def range_root(self, low: int, high: int) -> bytes:
        """MTH of the leaves [low, high), low aligned as the RFC's splits align it (any range
        a proof needs); O(log n) lookups."""
        width = high - low
        if width & (width - 1) == 0 and low % width == 0:
            height = width.bit_length() - 1
            return self.node(height, low >> height)
        k = split_point(width)
        if low % k:
            return root_of(self.leaf(i) for i in range(low, high))   # never from the proofs
        return node_hash(self.range_root(low, low + k), self.range_root(low + k, high))

    def inclusion(self, index: int, size: int | None = None) -> tuple[bytes, ...]:
        """The audit path of leaf `index` in the tree of the first `size` leaves (default: all),
        from the leaf's sibling up (RFC 6962 2.1.1)."""
        size = self.size if size is None else size
        self._check_size(size)
        if not 0 <= index < size:
            raise ValueError(f"leaf {index} is not in a tree of {size} leaves")
        path: list[bytes] = []
        low, high = 0, size
        while high - low > 1:
            k = split_point(high - low)
            if index < low + k:
                path.append(self.range_root(low + k, high))
                high = low + k
            else:
                path.append(self.range_root(low, low + k))
                low += k
        return tuple(reversed(path))

    def consistency(self, old_size: int, new_size: int | None = None) -> tuple[bytes, ...]:
        """The proof that the tree of `old_size` leaves is a prefix of the one of `new_size`
        (default: all) (RFC 6962 2.1.2); empty when the sizes are equal or old_size is 0."""
        new_size = self.size if new_size is None else new_size
        self._check_size(new_size)
        if not 0 <= old_size <= new_size:
            raise ValueError(f"no consistency proof from {old_size} leaves to {new_size}")
        if old_size in (0, new_size):
            return ()
        found: list[bytes] = []
        low, high, whole = 0, new_size, True
        m = old_size
        while m != high - low:
            k = split_point(high - low)
            if m <= k:
                found.append(self.range_root(low + k, high))
                high = low + k
            else:
                found.append(self.range_root(low, low + k))
                low, m, whole = low + k, m - k, False
        if not whole:
            found.append(self.range_root(low, high))
        return tuple(reversed(found))

    def _check_size(self, size: int) -> None:
        if not 0 <= size <= self.size:
            raise ValueError(f"the tree has {self.size} leaves, not {size}")


def _next_level(level: bytes) -> bytes:
    view = memoryview(level)
    pairs = len(level) // (2 * HASH_SIZE)
    out = bytearray()
    sha = hashlib.sha256
    for i in range(pairs):
        out += sha(NODE_PREFIX + view[2 * i * HASH_SIZE:(2 * i + 2) * HASH_SIZE]).digest()
    if len(level) % (2 * HASH_SIZE):
        out += view[-HASH_SIZE:]
    return bytes(out)


def root_from_inclusion(leaf: bytes, index: int, size: int,
                        path: Sequence[bytes]) -> bytes | None:
    """The root that `path` leads to from the leaf hash `leaf` at `index` in a tree of `size`
    leaves, None when the path cannot belong to such a tree (RFC 9162 2.1.3.2)."""
    if not 0 <= index < size:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while fn & 1 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return r if sn == 0 else None


def verify_inclusion(leaf: bytes, index: int, size: int, path: Sequence[bytes],
                     root: bytes) -> bool:
    return root_from_inclusion(leaf, index, size, path) == root


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes,
                       proof: Sequence[bytes]) -> bool:
    """Whether `proof` shows the tree (`old_size`, `old_root`) is a prefix of (`new_size`,
    `new_root`) (RFC 9162 2.1.4.2; equal sizes: equal roots and an empty proof; an empty old
    tree: the empty root and an empty proof)."""
    if not 0 <= old_size <= new_size:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof and old_root == EMPTY_ROOT
    path = list(proof)
    if old_size & (old_size - 1) == 0:
        path.insert(0, old_root)
    if not path:
        return False
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while fn & 1 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == old_root and sr == new_root and sn == 0
