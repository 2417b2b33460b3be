"""The store a command works on: `--database`, else VERBALE_DATABASE_URL, else
./var/verbale.db (projections/store/config.py). Kept apart so that a command reading the store
loads neither the simulator nor the other commands."""

from __future__ import annotations

from projections.store.app import MatchStore
from projections.store.config import StoreConfigError
from replay_web.cli import UsageProblem
from replay_web.i18n import translate_error


def open_store(database: str | None, read_only: bool = False) -> MatchStore:
    """The store named by --database, else by VERBALE_DATABASE_URL, else ./var/verbale.db.
    `read_only` (verify, export, listing) creates and changes nothing. A bad URL is a usage
    problem naming where it came from (exit 2); a store that cannot be opened raises
    StoreUnavailable, one line naming the store (exit 1, replay_web/cli.py)."""
    try:
        return MatchStore(url=database, read_only=read_only,
                          origin="--database" if database is not None else None)
    except StoreConfigError as error:
        raise UsageProblem(translate_error(error)) from None
