"""The fairness report's choices that the command line offers before any test runs: the level at
which a test flags and the populations of deals. Kept apart from the battery so that a command's
options are read without importing numpy or scipy (issue 24: a command starts with what it
needs)."""

from __future__ import annotations

ALPHA = 0.01
"""The level at which a test flags, after Benjamini-Hochberg over the battery."""

SEEDED, TRANSCRIBED = "seeded", "transcribed"
POPULATIONS = (SEEDED, TRANSCRIBED)
"""The populations of deals, each with its own battery and headline verdict: the seeded deals
(live and simulated matches: the shuffle can be checked) and the transcribed ones (a club's
hand shuffle, written down afterwards; unseeded deals with them). Never pooled."""
