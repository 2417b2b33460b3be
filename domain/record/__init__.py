"""The match record: match-level events, the Match and Tournament aggregates, and the audit."""
