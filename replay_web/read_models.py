"""The read models brought up to date after a command of the CLI wrote events.

The events are the record and are committed first; the read models follow them. A catch-up that
fails then (the database gone, the disk full) takes nothing back: the command says in one line
that the read models are behind and that `verbale project` catches them up (exit code 1).
"""

from __future__ import annotations

from projections.store.app import MatchStore
from projections.store.config import database_url
from replay_web.cli import CommandFailed, classify
from replay_web.i18n import _


def catch_up_read_models(store: MatchStore, database: str | None) -> CommandFailed | None:
    """Fold the events `store` holds beyond the read models' position into them. None when
    done; else the one-line failure, for the command to raise once it has said what it
    recorded."""
    # Imported here: a command that writes nothing never loads SQLAlchemy.
    from projections.read_models.engine import read_model_engine
    from projections.read_models.project import catch_up
    try:
        engine = read_model_engine(database or database_url())
        try:
            catch_up(store, engine)
        finally:
            engine.dispose()
    except Exception as error:   # whatever it was, the recorded events stay: say so, exit 1
        return CommandFailed(_(
            "the events are recorded, but the read models could not be brought up to date "
            "({reason}); they are behind until 'verbale project' catches them up").format(
                reason=classify(error)[1]))
    return None
