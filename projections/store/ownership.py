"""Whether the process reading a store is its owner (docs/fairness.md, "What the public sees"):
the owner may see every figure of a fairness report; anyone else gets the public's report.

- SQLite: the database file's owner (its uid) is the process's effective uid. Root is not the
  owner of another user's file: root can read it, but reading is not owning.
- PostgreSQL: the role the store connects as owns the events table, or is a member of the role
  that does (`pg_has_role(..., 'MEMBER')`; a superuser is a member of every role).
- Anything else (a store whose owner cannot be found out): not the owner.
"""

from __future__ import annotations

import os
from typing import Any

from projections.store.app import MatchStore
from projections.store.recorders import EVENTS_TABLE

_OWNS = ("SELECT pg_has_role(current_user, c.relowner, 'MEMBER') FROM pg_class c "
         "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relname = %s")


def owns_store(store: MatchStore) -> bool:
    """Whether this process owns `store` (the module's docstring says how that is told)."""
    path = store.env.get("SQLITE_DBNAME")
    if path:
        return _owns_file(path)
    if store.env.get("POSTGRES_DBNAME"):
        return _owns_table(store)
    return False


def _owns_file(path: str) -> bool:
    if path == ":memory:" or path.startswith("file:"):
        return False
    try:
        return os.stat(path).st_uid == os.geteuid()
    except OSError:
        return False


def _owns_table(store: MatchStore) -> bool:
    datastore: Any = store.chained.datastore
    with datastore.get_connection() as conn, conn.cursor() as curs:
        curs.execute(_OWNS, (datastore.schema, EVENTS_TABLE))
        row = curs.fetchone()
    if row is None:
        return False
    value = row["pg_has_role"] if isinstance(row, dict) else row[0]
    return bool(value)


__all__ = ["owns_store"]
