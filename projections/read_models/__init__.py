"""Read models: SQL tables folded from the store's notification log (issue 10).

schema.py holds the tables, engine.py the engine on the store's own database, fold.py what each
event changes, project.py the catch-up with its tracking and the rebuild.
"""
