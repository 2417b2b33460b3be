"""Opening a PostgreSQL store (opening.py describes what opening checks): imported only when
a PostgreSQL URL is used."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

import psycopg
from eventsourcing.persistence import ApplicationRecorder
from eventsourcing.postgres import PostgresDatastore, PostgresFactory
from eventsourcing.utils import Environment, EnvType
from psycopg import Connection
from psycopg.rows import DictRow

from domain.text import say
from projections.store.config import APPLICATION_NAME, READ_ONLY, WHERE
from projections.store.opening import (
    guarded,
    is_yes,
    newer_schema,
    store_problem,
    unavailable,
)
from projections.store.recorders import EVENTS_TABLE, HEADS_TABLE, MARKER_TABLE, SCHEMA_VERSION
from projections.store.recorders_postgres import ChainedPostgresRecorder

# ---- PostgreSQL -----------------------------------------------------------------------------


class _GuardedPostgresDatastore(PostgresDatastore):
    """The library's datastore whose connections turn database failures (not a conflict
    between writers) into StoreUnavailable; `transaction` goes through `get_connection`."""

    where = "the store"

    @contextmanager
    def get_connection(self) -> Iterator[Connection[DictRow]]:
        with guarded(self.where), super().get_connection() as conn:
            # The pool waits to be full on its first request only: waiting again would time out
            # (and close the pool) while another connection is out, e.g. a subscription's LISTEN.
            self.pool_open_timeout = None
            yield conn


class VerbalePostgresFactory(PostgresFactory):
    """The library's factory with: sessions named `verbale`, a connect timeout, read-only
    sessions and no DDL for a read-only opening, and a first connection that says at once, in
    one line, why the server cannot be used."""

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        self.read_only = is_yes(self.env, READ_ONLY)
        self.where = self.env.get(WHERE) or "postgresql"
        # The library's factory builds a PostgresDatastore from its variables; the guarded one
        # only adds behaviour, so the instance takes its class instead of being built again.
        self.datastore.__class__ = _GuardedPostgresDatastore
        cast(_GuardedPostgresDatastore, self.datastore).where = self.where
        kwargs = self.datastore.pool.kwargs
        assert isinstance(kwargs, dict)
        kwargs["application_name"] = os.environ.get("PGAPPNAME") or APPLICATION_NAME
        kwargs["connect_timeout"] = int(self.datastore.pool.timeout)
        # Open the pool's connections before the first request: a request made while the
        # first connection is still being made would have the pool start a second one.
        self.datastore.pool_open_timeout = self.datastore.pool.timeout
        if self.read_only:
            kwargs["options"] = (os.environ.get("PGOPTIONS", "")
                                 + " -c default_transaction_read_only=on").strip()
        self.tables = self._probe(kwargs)

    def _probe(self, kwargs: dict[str, Any]) -> set[str]:
        """The tables of the store's schema, on a short-lived connection of its own."""
        params = {k: v for k, v in kwargs.items() if k != "row_factory"}
        try:
            with psycopg.connect(**params) as conn:
                rows = conn.execute(
                    "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON "
                    "n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind IN ('r', 'p')",
                    (self.datastore.schema,)).fetchall()
                tables = {str(r[0]) for r in rows}
                if MARKER_TABLE in tables:
                    found = conn.execute(
                        f'SELECT max(schema_version) FROM "{self.datastore.schema}".'
                        f"{MARKER_TABLE}").fetchone()
                    if found and found[0] is not None and int(found[0]) > SCHEMA_VERSION:
                        raise store_problem(self.where, newer_schema(found[0]))
                return tables
        except psycopg.Error as error:
            raise unavailable(error, self.where) from None

    def application_recorder(self) -> ApplicationRecorder:
        recorder = ChainedPostgresRecorder(datastore=self.datastore,
                                           events_table_name=EVENTS_TABLE)
        if self.read_only:
            if not {EVENTS_TABLE, HEADS_TABLE} <= self.tables:
                if self.tables:
                    raise store_problem(self.where, say(
                        "no verbale store in schema {schema} (it has tables {tables})",
                        schema=self.datastore.schema, tables=", ".join(sorted(self.tables))))
                raise store_problem(self.where, say(
                    "no verbale store in schema {schema} (it has no tables)",
                    schema=self.datastore.schema))
            return recorder
        recorder.create_table()
        return recorder
