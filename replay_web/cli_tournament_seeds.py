"""`verbale commit-seeds`, `verbale reveal-session`, `verbale session-seed`: a director's
tournament seed commitment (docs/shuffle.md, "Tournament seed commitment"), and the demo
tournaments' use of it (`verbale simulate matches --store`).

commit-seeds draws one secret per session (round) from the operating system, writes them to a
file that only its owner may read (never overwritten) and records the root before any match is
scheduled; session-seed gives the house the match seed of a table once the public value is
out; reveal-session records one session's reveal, checked against the root.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import cast
from uuid import UUID

import click

from domain.demo.seeds import (
    DEMO_PUBLIC_VALUE,
    DEMO_REFERENCE,
    TABLES,
    demo_place,
    demo_secrets,
)
from domain.record.envelope import RecordedBy
from domain.record.tournament import TournamentRefused, TournamentState
from domain.record.tournament_seeds import SessionSecrets, session_seed, table_seed
from domain.shuffle import Seed, SeedError
from projections.store.app import Loaded, MatchStore
from replay_web.cli import UsageProblem, cli, database_option
from replay_web.cli_database import open_store
from replay_web.i18n import _, translate_error
from replay_web.match_ids import resolve_match
from replay_web.secret_file import write_secret_file

_FILE = click.Path(dir_okay=False, path_type=Path)
SECRET_BYTES = 32


def director(command: str) -> RecordedBy:
    """The house seeds the deals: the director's commitment and reveals are the house's acts,
    recorded by the command that made them."""
    return RecordedBy("house", f"verbale {command}")


@cli.command("commit-seeds")
@click.argument("tournament_text", metavar="TOURNAMENT")
@click.option("--sessions", type=click.IntRange(1, 2**32 - 1), required=True,
              help="How many sessions (rounds) the tournament will play.")
@click.option("--reference", required=True,
              help="The public value to be mixed in, named before it exists (e.g. a drand "
                   "round to come, a lottery draw).")
@click.option("--secrets", "secrets_path", type=_FILE, required=True,
              help="The file to write the session secrets to (never overwritten; keep it "
                   "private until a session is revealed).")
@database_option
def commit_seeds(tournament_text: str, sessions: int, reference: str, secrets_path: Path,
                 database: str | None) -> None:
    """Draw the secret of every session of TOURNAMENT and record their one commitment (the
    Merkle root, with the public value's reference) before any match is scheduled."""
    secrets = SessionSecrets(tuple(Seed(os.urandom(SECRET_BYTES)) for _ in range(sessions)))
    committed = secrets.committed(reference)
    store = open_store(database)
    try:
        tournament = resolve_match(store, tournament_text)
        _write_secrets(secrets_path, tournament, secrets)
        try:
            store.commit_tournament_seeds(tournament, committed.root, sessions, reference,
                                          datetime.now(UTC), director("commit-seeds"))
        except TournamentRefused as refused:
            secrets_path.unlink()
            raise UsageProblem(translate_error(refused)) from None
    finally:
        store.close()
    click.echo(_("tournament {tournament}: {sessions} sessions committed, root {root}; the "
                 "secrets are in {path}").format(tournament=tournament, sessions=sessions,
                                                 root=committed.root, path=secrets_path))


@cli.command("reveal-session")
@click.argument("tournament_text", metavar="TOURNAMENT")
@click.option("--session", type=click.IntRange(1), required=True,
              help="The session (round) to reveal.")
@click.option("--public-value", required=True,
              help="The public value as published (the text the reference named).")
@click.option("--secrets", "secrets_path", type=_FILE, required=True,
              help="The file 'verbale commit-seeds' wrote.")
@database_option
def reveal_session(tournament_text: str, session: int, public_value: str, secrets_path: Path,
                   database: str | None) -> None:
    """Record the reveal of one session of TOURNAMENT: its secret, its commitment and its
    inclusion path to the root, with the public value; no other session is exposed."""
    store = open_store(database)
    try:
        tournament = resolve_match(store, tournament_text)
        secrets = _read_secrets(secrets_path, tournament)
        try:
            store.reveal_session(tournament, secrets.revealed(session, public_value),
                                 datetime.now(UTC), director("reveal-session"))
        except (TournamentRefused, ValueError) as refused:
            raise UsageProblem(translate_error(refused)) from None
    finally:
        store.close()
    click.echo(_("tournament {tournament}: session {session} revealed").format(
        tournament=tournament, session=session))


@cli.command("session-seed")
@click.option("--session", type=click.IntRange(1), required=True, help="The session (round).")
@click.option("--table", type=click.IntRange(1, 2**32 - 1), required=True, help="The table.")
@click.option("--public-value", required=True, help="The public value as published.")
@click.option("--secrets", "secrets_path", type=_FILE, required=True,
              help="The file 'verbale commit-seeds' wrote.")
def session_seed_command(session: int, table: int, public_value: str,
                         secrets_path: Path) -> None:
    """Print the match seed of a table in a session (hex) and its commitment: the seed the
    house plays that table's match from (it reads no store)."""
    secrets = _read_secrets(secrets_path, None)
    if session > len(secrets.secrets):
        raise UsageProblem(_("--session {session}: the file holds {count} sessions").format(
            session=session, count=len(secrets.secrets)))
    seed = table_seed(session_seed(secrets.secrets[session - 1], session, public_value), table)
    click.echo(_("match seed {seed}, commitment {commitment}").format(
        seed=seed.hex, commitment=seed.commitment()))


def _write_secrets(path: Path, tournament: UUID, secrets: SessionSecrets) -> None:
    write_secret_file(path, json.dumps({"tournament": str(tournament),
                                        "secrets": [s.hex for s in secrets.secrets]},
                                       indent=1) + "\n", "--secrets")


def _read_secrets(path: Path, tournament: UUID | None) -> SessionSecrets:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        secrets = SessionSecrets(tuple(Seed.from_hex(s) for s in data["secrets"]))
        named = UUID(data["tournament"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        reason = translate_error(error) if isinstance(error, SeedError) else str(error)
        raise UsageProblem(_("--secrets {path}: not a file of 'verbale commit-seeds' "
                             "({reason})").format(path=path, reason=reason)) from None
    if tournament is not None and named != tournament:
        raise UsageProblem(_("--secrets {path}: the secrets of tournament {named}, not of "
                             "{tournament}").format(path=path, named=named,
                                                    tournament=tournament))
    return secrets


# ---- the demo tournaments (`verbale simulate matches --store`) ----------------------------

def commit_demo_seeds(store: MatchStore, tournament: UUID, seed: Seed, game: str,
                      at: datetime, by: RecordedBy) -> None:
    """The demo tournament's seed commitment, recorded once, before its first match (a demo
    tournament a run of before the commitment existed left with matches is left as it is)."""
    state = cast(TournamentState, store.load_tournament(tournament).state)
    if state.seeds is not None or state.places:
        return
    committed = demo_secrets(seed, game).committed(DEMO_REFERENCE)
    store.commit_tournament_seeds(tournament, committed.root, committed.sessions,
                                  committed.reference, at, by)


def reveal_demo_sessions(store: MatchStore, seed: Seed, tournaments: dict[str, Loaded],
                         total: int, at: datetime, by: RecordedBy) -> None:
    """Reveal each demo round whose four tables the run of `total` matches fills (a round a
    run leaves partly filled stays secret: a later, longer run may still schedule matches in
    it), once. Dated `at`, the demo's start, like the rest of the demo tournaments' streams, so
    that a later run may still schedule its new rounds there."""
    complete = {demo_place(index)[0] for index in range(total - total % TABLES)}
    for game, loaded in tournaments.items():
        state = cast(TournamentState, store.load_tournament(loaded.stream).state)
        if state.seeds is None:
            continue
        rounds = sorted(({r for r, _ in state.places} & complete) - set(state.revealed))
        secrets = demo_secrets(seed, game) if rounds else None
        for round_ in rounds:
            assert secrets is not None
            store.reveal_session(loaded.stream, secrets.revealed(round_, DEMO_PUBLIC_VALUE),
                                 at, by)
