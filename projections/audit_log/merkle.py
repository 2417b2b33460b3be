"""The Merkle tree of RFC 6962 section 2.1 over the log's leaves, its proofs and their checks.

The hashing is pure and lives in domain/merkle.py (the tournament seed commitment uses it too);
this module keeps the audit log's names for it.
"""

from __future__ import annotations

from domain.merkle import (
    EMPTY_ROOT,
    HASH_SIZE,
    LEAF_PREFIX,
    NODE_PREFIX,
    Compact,
    MerkleTree,
    leaf_hash,
    node_hash,
    root_from_inclusion,
    root_of,
    split_point,
    verify_consistency,
    verify_inclusion,
)

__all__ = ["EMPTY_ROOT", "HASH_SIZE", "LEAF_PREFIX", "NODE_PREFIX", "Compact", "MerkleTree",
           "leaf_hash", "node_hash", "root_from_inclusion", "root_of", "split_point",
           "verify_consistency", "verify_inclusion"]
