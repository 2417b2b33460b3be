"""Stores of complete bot-played matches for the fairness tests (issue 23), built once per run:
the honest store of 1,000 matches the issue measured, and the same deals as a club's
transcriptions with one dealer stacking his 15."""

from __future__ import annotations

from functools import cache

import numpy as np

from projections.fairness import calibration as cal
from projections.fairness.selection import Selection

MATCHES = 1_000
CHEAT = 0
"""The seat of the dealer who stacks his 15 in the transcribed store."""


@cache
def honest() -> Selection:
    """1,000 honest complete matches, as `verbale simulate matches` records them."""
    return cal.honest_store("issue-23", MATCHES)


@cache
def stacked_by_hand() -> Selection:
    """The same deals, transcribed (no seed), seat CHEAT stacking his 15 (about doubled)."""
    return cal.stacked_fifteens(cal.hand_shuffled(honest()), CHEAT, 0.07,
                                np.random.default_rng(23))
