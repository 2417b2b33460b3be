"""The Sicilian Tarocchi tournament of source 003: seating draw, schedule, score sheets, checks,
penalties and standings. The card play itself is not modelled (003 does not give its rules)."""
