"""Shuffle fairness: the exact probabilities of the events players suspect (exact.py, events.py)
and the battery that compares them with stored deals (docs/fairness.md)."""
