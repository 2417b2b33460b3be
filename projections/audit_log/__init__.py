"""The public audit log (issue 13): a Merkle tree over every stored event in commit order,
signed checkpoints of it, and the proofs a third party checks with docs/verify_checkpoint.py
(docs/audit-log.md)."""
