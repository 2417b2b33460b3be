"""The outside auditor: re-checks what verbale publishes with only its documents
(docs/events.md, docs/shuffle.md, docs/audit-log.md) and the standard library.

It imports nothing of verbale and nothing outside the standard library (an import-linter contract
in pyproject.toml and tests/projections/auditor/test_standard_library.py keep it so): every rule
it applies is one the documents state, written again here from them, and it shows that an
auditor without verbale's code can check a match.

- a match's export (`verbale audit FILE.jsonl`, `audit.py`): `chain` (`chain.py`), `seeds` and
  `match seed` (`match.py`), `deals` and `draws` (`deals.py`, with docs/shuffle.md written again
  in `shuffle.py`), `scores` (`scores.py`), `rulings` (`rulings.py`); the report and its
  messages, English templates the command line translates, in `report.py`; the export read in
  `reading.py`. It does not replay the plays: that needs a rules engine (`verbale verify`).
- a tournament's export: its seed commitment and revealed sessions (`sessions.py`).
- the audit log's checkpoints and proofs (`checkpoint.py`, `python -m projections.auditor`):
  docs/verify_checkpoint.py is that module in one file (`standalone.py` makes it).

One Ed25519 verification (`ed25519.py`, RFC 8032) and one check of Merkle proofs (`merkle.py`,
RFC 6962 / RFC 9162) serve all of them.
"""
