"""Checkpoints of the store and the proofs against them (docs/audit-log.md).

`checkpoint_store` reads every stored event once, signs the tree's size and root, and returns
the heads to publish with it. `match_proof` shows that each event of a match, as stored, is a
leaf of a checkpoint's tree: one inclusion path per event, with the records, so that the
checker also sees the match's whole chain from its first event to its head at the checkpoint;
the proof carries the checkpoint's heads (their digest is a line of the signed checkpoint), so
the checker sees that the chain reaches the match's head, and that no last event was left out
(docs/verify_checkpoint.py checks all three). `consistency_proof` shows that an older checkpoint's
tree is a prefix of a newer one's. Both refuse to prove anything from a store whose first
events no longer hash to the checkpoint's root: that is what `verify --against` reports.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.text import say
from projections.audit_log.checkpoint import DEFAULT_ORIGIN, Checkpoint, Signed, checkpoint_of, sign
from projections.audit_log.leaves import (
    HEADS_LINE,
    Leaf,
    LeavesError,
    heads_digest,
    heads_of,
    heads_text,
    read_leaves,
    tree_of,
)
from projections.audit_log.merkle import MerkleTree
from projections.store.app import MatchStore

INCLUSION_FORMAT = "verbale-inclusion-proof/2"
"""Format 1 had no heads: a proof cut short still checked out (issue 23). The checker refuses
it."""
CONSISTENCY_FORMAT = "verbale-consistency-proof/1"


class ProofError(ValueError):
    """No proof can be made: the store no longer holds the checkpoint's tree, or the match has
    no event in it (exit code 1: a failed check)."""

    exit_code = 1


@dataclass(frozen=True, slots=True)
class Made:
    signed: Signed
    heads: str             # the heads text to publish beside the checkpoint


def checkpoint_store(store: MatchStore, key: Ed25519PrivateKey, at: datetime,
                     origin: str = DEFAULT_ORIGIN) -> Made:
    """A signed checkpoint of every event stored now, and its heads."""
    seen: list[Leaf] = []
    tree = tree_of(_last_per_stream(read_leaves(store), seen))
    text = heads_text(heads_of(seen))
    made = checkpoint_of(tree.size, tree.root, at, origin, (heads_digest(text),))
    return Made(sign(made, key), text)


HEADS_SUFFIX = ".heads"


def heads_path(checkpoint: Path) -> Path:
    """Where the heads of the checkpoint file `checkpoint` are kept: beside it."""
    return checkpoint.with_name(checkpoint.name + HEADS_SUFFIX)


def write_checkpoint(made: Made, path: Path) -> Path:
    """The checkpoint's text at `path` and its heads beside it (heads_path); a checkpoint is
    never overwritten. Returns the heads' path."""
    heads = heads_path(path)
    for target in (path, heads):
        if target.exists():
            raise ProofError(say("{path} already exists: a checkpoint is never overwritten",
                                 path=str(target)))
    try:
        heads.write_text(made.heads, encoding="utf-8")
        path.write_text(made.signed.text(), encoding="utf-8")
    except OSError as error:
        raise ProofError(say("cannot write the checkpoint {path}: {error}", path=str(path),
                             error=error.strerror or str(error))) from None
    return heads


def read_heads(checkpoint: Path) -> str | None:
    """The heads kept beside the checkpoint file `checkpoint`, None when there are none."""
    try:
        return heads_path(checkpoint).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise ProofError(say("cannot read the heads {path}: {error}",
                             path=str(heads_path(checkpoint)), error=str(error))) from None


def _last_per_stream(leaves: Iterable[Leaf], kept: list[Leaf]) -> Iterator[Leaf]:
    """`leaves` unchanged; `kept` receives the last leaf of each stream (not every record)."""
    last: dict[UUID, Leaf] = {}
    for leaf in leaves:
        last[leaf.stream] = leaf
        yield leaf
    kept.extend(last.values())


def _checked_tree(store: MatchStore, checkpoint: Checkpoint, keep: UUID | None = None,
                  last: list[Leaf] | None = None) -> tuple[MerkleTree, list[Leaf]]:
    """The checkpoint's tree read from the store (ProofError unless it gives the root), the
    leaves of stream `keep`, and into `last` the last leaf of each stream."""
    kept: list[Leaf] = []

    def hashes() -> Iterator[Leaf]:
        for leaf in read_leaves(store):
            if leaf.index >= checkpoint.size:
                return
            if leaf.stream == keep:
                kept.append(leaf)
            yield leaf

    try:
        leaves = hashes() if last is None else _last_per_stream(hashes(), last)
        tree = tree_of(leaves, checkpoint.size)
    except LeavesError as error:
        raise ProofError(error.args[0]) from None
    if tree.root.hex() != checkpoint.root:
        raise ProofError(say("the store's first {size} events no longer hash to the "
                             "checkpoint's root: no proof can be made from it (run verify "
                             "against the checkpoint)", size=checkpoint.size))
    return tree, kept


def match_proof(store: MatchStore, checkpoint: Checkpoint, match: UUID) -> dict[str, Any]:
    """The inclusion proof of every event of `match` in the checkpoint's tree, as JSON."""
    last: list[Leaf] = []
    tree, leaves = _checked_tree(store, checkpoint, match, last)
    if not leaves:
        raise ProofError(say("match {match} has no event among the {size} of the checkpoint",
                             match=str(match), size=checkpoint.size))
    heads = heads_text(heads_of(last))
    if heads_digest(heads) not in checkpoint.extensions:
        raise ProofError(say("the checkpoint signs no heads of its streams (no `{line}` line): "
                             "a proof against it could not show the match whole",
                             line=HEADS_LINE.strip()))
    return {"format": INCLUSION_FORMAT, "origin": checkpoint.origin,
            "tree_size": checkpoint.size, "root": checkpoint.root, "match": str(match),
            "heads": heads,
            "events": [{"index": leaf.index, "version": leaf.version,
                        "record": leaf.record.decode("utf-8"),
                        "path": [p.hex() for p in tree.inclusion(leaf.index)]}
                       for leaf in leaves]}


def consistency_proof(store: MatchStore, old: Checkpoint, new: Checkpoint) -> dict[str, Any]:
    """The proof that `old`'s tree is a prefix of `new`'s, both read from the store."""
    if old.size > new.size:
        raise ProofError(say("the older checkpoint has more events ({old}) than the newer "
                             "({new})", old=old.size, new=new.size))
    tree, _ = _checked_tree(store, new)
    if tree.root_at(old.size).hex() != old.root:
        raise ProofError(say("the checkpoint of {old} events is not a prefix of the one of "
                             "{new}: one of them is not of this store", old=old.size,
                             new=new.size))
    return {"format": CONSISTENCY_FORMAT, "origin": new.origin, "old_size": old.size,
            "new_size": new.size, "path": [p.hex() for p in tree.consistency(old.size)]}

