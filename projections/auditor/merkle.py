"""The Merkle tree's hashes and the checks of its proofs (RFC 6962, as RFC 9162 sections 2.1.3.2
and 2.1.4.2 state the verification), written again with the standard library only: the one the
checkpoint checker (`checkpoint.py`, docs/verify_checkpoint.py) and the tournament seeds' check
(`seeds.py`) use. verbale's own tree is domain/merkle.py; these only verify.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def inclusion_root(leaf: bytes, index: int, size: int, path: Sequence[bytes]) -> bytes | None:
    """RFC 9162 2.1.3.2: the root an inclusion path leads to from leaf `index` of a tree of
    `size` leaves, None if the path cannot fit the tree."""
    if not 0 <= index < size:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return None
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn // 2, sn // 2
        else:
            r = node_hash(r, p)
        fn, sn = fn // 2, sn // 2
    return r if sn == 0 else None


def consistent(old_size: int, new_size: int, old_root: bytes, new_root: bytes,
               proof: Sequence[bytes]) -> bool:
    """RFC 9162 2.1.4.2: whether `proof` shows the tree of `old_size` leaves and root
    `old_root` to be a prefix of the one of `new_size` leaves and root `new_root`."""
    if not 0 <= old_size <= new_size:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof and old_root == hashlib.sha256(b"").digest()
    path = ([old_root] if old_size & (old_size - 1) == 0 else []) + list(proof)
    if not path:
        return False
    fn, sn = old_size - 1, new_size - 1
    while fn % 2 == 1:
        fn, sn = fn // 2, sn // 2
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn // 2, sn // 2
        else:
            sr = node_hash(sr, c)
        fn, sn = fn // 2, sn // 2
    return fr == old_root and sr == new_root and sn == 0
