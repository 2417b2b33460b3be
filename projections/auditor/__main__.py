"""`python -m projections.auditor --key PUB --checkpoint FILE [--old-checkpoint OLD]
[--proof PROOF.json]`: the checkpoint checker (checkpoint.py, docs/verify_checkpoint.py)."""

from __future__ import annotations

import sys

from .checkpoint import main

if __name__ == "__main__":
    sys.exit(main())
