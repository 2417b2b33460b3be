"""Which hypothesis profile the run uses (tests/conftest.py loads it), and sizes scaled by it.

`make test` here runs the `dev` profile and stays within minutes; CI (CI=true) runs `ci`, where
the heavy runs take the sizes the issues ask for (CI's limit is 90 minutes); `deep` is for long
local runs. Runs that are not hypothesis tests (the fuzz inputs, the tamperings, statistical
batches) size themselves with `scaled` so that the setting, not a skip, decides how long they take.
"""

from __future__ import annotations

import os

PROFILES = ("dev", "ci", "deep")


def profile_name() -> str:
    default = "ci" if os.environ.get("CI", "").lower() == "true" else "dev"
    return os.environ.get("VERBALE_HYPOTHESIS_PROFILE", default)


def scaled(dev: int, ci: int, deep: int | None = None) -> int:
    """`dev` under the dev profile, `ci` under ci, `deep` (default: `ci`) under deep."""
    return {"dev": dev, "ci": ci, "deep": ci if deep is None else deep}[profile_name()]
