"""The demo data of `verbale simulate matches --store` (`make run`): the demo set of matches
(`matches.py`: both games, 2 and 4 players, every match format, with some timeouts, abandons and
rulings, all following from one seed), the seeds of the demo tournaments' sessions (`seeds.py`)
and the transcribed demo match (`transcribed.py`). Data made by the domain's own rules, kept out
of the record's package: the command line records them, the audit log knows the demo's key
(projections/audit_log/late.py), the fairness calibration plays them, and the tests use them."""
