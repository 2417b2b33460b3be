"""`verbale arbiter ...`: the viewer's arbiter accounts, their signing keys and the seats' links.

`add`, `passwd`, `remove` and `list` keep the accounts (projections/accounts.py: password
hashes, never the passwords) and each arbiter's signing key (projections/arbiter_signing.py:
the public key registered in the record, the private key sealed under the password);
`links --match ID` prints each seat's link for a match (an HMAC token, replay_web/access.py);
`rotate-secret` voids every seat link and every login at once. The accounts sit in the store's
own database, beside the events and the read models.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from uuid import UUID

import click
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from projections.accounts import (
    AccountError,
    add_arbiter,
    arbiters,
    remove_arbiter,
    rotate_site_secret,
    site_secret,
)
from projections.arbiter_signing import change_password, give_key, replace_key, retire_keys
from projections.store.app import MatchStore
from replay_web.access import seat_token
from replay_web.cli import CommandFailed, UsageProblem, arbiter, database_option
from replay_web.cli_database import open_store
from replay_web.i18n import _, translate_error
from replay_web.tables import Grid, show

DEFAULT_BASE_URL = "http://127.0.0.1:8000"


password_stdin_option = click.option(
    "--password-stdin", is_flag=True,
    help="Read the password from the first line of standard input (for scripts).")


@contextmanager
def accounts(database: str | None, create: bool = False) -> Iterator[Engine]:
    """The engine of the store's database. The store must be there (`create`: made if
    missing); a refusal is a usage problem, a database failure one line (exit 1)."""
    from projections.read_models.engine import read_model_engine
    from projections.store.config import database_url, redact
    from projections.store.opening import unavailable

    # A missing or foreign store is one line, and (unless `create`) nothing is made.
    open_store(database, read_only=not create).close()
    url = database or database_url()
    engine = read_model_engine(url)
    try:
        yield engine
    except AccountError as error:
        raise UsageProblem(translate_error(error)) from None
    except DBAPIError as error:
        raise unavailable(error.orig or error, redact(url)) from None
    finally:
        engine.dispose()


def read_password(from_stdin: bool) -> str:
    """The new password: the first line of standard input, else asked twice, hidden."""
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return str(click.prompt(_("Password"), hide_input=True,
                            confirmation_prompt=_("Repeat the password"), type=str))


def read_current(from_stdin: bool) -> str:
    """The current password: the first line of standard input, else asked once, hidden."""
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return str(click.prompt(_("Current password"), hide_input=True, type=str))


@contextmanager
def record(database: str | None) -> Iterator[MatchStore]:
    """The store, open for writing: an arbiter's keys are registered and revoked in it."""
    store = open_store(database)
    try:
        yield store
    finally:
        store.close()


@arbiter.command("add")
@click.argument("name")
@password_stdin_option
@click.option("--generate-password", is_flag=True,
              help="Make a random password and print it once (for a demo or a first setup).")
@click.option("--if-missing", is_flag=True,
              help="Leave an existing account of that name as it is (exit 0).")
@database_option
def add(name: str, password_stdin: bool, generate_password: bool, if_missing: bool,
        database: str | None) -> None:
    """Add an arbiter who may log in to the viewer (the password is asked twice, hidden)."""
    import secrets

    with accounts(database, create=True) as engine:
        if if_missing and any(a.name == name for a in arbiters(engine)):
            click.echo(_("arbiter {name} is already there: unchanged").format(name=name))
            return
        password = (secrets.token_urlsafe(12) if generate_password
                    else read_password(password_stdin))
        add_arbiter(engine, name, password)
        with record(database) as store:
            key = give_key(store, engine, name, password)
    click.echo(_("arbiter {name} added").format(name=name))
    click.echo(_("signing key {key} registered in the record").format(key=key))
    if generate_password:
        click.echo(_("its password (shown only now): {password}").format(password=password))


@arbiter.command("passwd")
@click.argument("name")
@click.option("--password-stdin", is_flag=True,
              help="Read the current password from the first line of standard input and the "
                   "new one from the second (with --new-key, only the new one).")
@click.option("--new-key", is_flag=True,
              help="The current password is forgotten: revoke the arbiter's signing key (the "
                   "rulings it signed stay signed) and make a new one under the new password.")
@database_option
def passwd(name: str, password_stdin: bool, new_key: bool, database: str | None) -> None:
    """Give an arbiter a new password: the current one is asked first (hidden), because the
    arbiter's signing key is sealed under it and is sealed again under the new one."""
    current = None if new_key else read_current(password_stdin)
    password = read_password(password_stdin)
    with accounts(database) as engine, record(database) as store:
        if current is None:
            made: str | None = replace_key(store, engine, name, password)
        else:
            made = change_password(store, engine, name, current, password)
    click.echo(_("password of arbiter {name} changed").format(name=name))
    if made is not None:
        click.echo(_("signing key {key} registered in the record").format(key=made))


@arbiter.command("remove")
@click.argument("name")
@database_option
def remove(name: str, database: str | None) -> None:
    """Remove an arbiter's account: their logins to the viewer end at once."""
    with accounts(database) as engine:
        if not any(a.name == name for a in arbiters(engine)):
            remove_arbiter(engine, name)   # the refusal: no such arbiter
        with record(database) as store:
            revoked = retire_keys(store, engine, name)
        remove_arbiter(engine, name)
    click.echo(_("arbiter {name} removed").format(name=name))
    for key in revoked:
        click.echo(_("signing key {key} revoked: it signs nothing from now on").format(key=key))


@arbiter.command("list")
@database_option
def list_arbiters(database: str | None) -> None:
    """The arbiters who may log in, when each account was made (UTC), and the id of the
    signing key each keeps (its start; none: 'verbale arbiter passwd NAME' makes one)."""
    from projections.sealed_keys import sealed_of

    with accounts(database) as engine:
        found = arbiters(engine)
        sealed = {a.name: sealed_of(engine, a.name) for a in found}
    keys = {name: key.key[:16] if key is not None else _("none") for name, key in sealed.items()}
    if not found:
        click.echo(_("no arbiter yet; 'verbale arbiter add NAME' adds one"))
        return
    rows = [[a.name, a.created, keys[a.name]] for a in found]
    show(Grid([_("arbiter"), _("created (UTC)"), _("signing key")], rows))


@arbiter.command("links")
@click.option("--match", "match_text", required=True,
              help="The match: its id or the start of it that 'verbale matches' lists.")
@click.option("--base-url", default=DEFAULT_BASE_URL, show_default=True,
              envvar="VERBALE_BASE_URL",
              help="Where the viewer is reached (also $VERBALE_BASE_URL).")
@database_option
def links(match_text: str, base_url: str, database: str | None) -> None:
    """Each seat's link to a match: it shows the match as that seat saw it, to whoever has
    it. Give each player only their own."""
    from replay_web.match_ids import check_match_text

    check_match_text(match_text)
    stream, players = _players(database, match_text)
    with accounts(database) as engine:
        secret = site_secret(engine)
    base = base_url.rstrip("/")
    for seat, player in enumerate(players):
        token = seat_token(secret, UUID(stream), seat)
        click.echo(_("seat {n} ({player}): {link}").format(
            n=seat + 1, player=player,
            link=f"{base}/matches/{stream}?view=seat{seat + 1}&token={token}"))


def _players(database: str | None, match_text: str) -> tuple[str, tuple[str, ...]]:
    """The match `match_text` names and its players by seat, from the read models."""
    from projections.read_models.scores import match_scores
    from replay_web.read_view import open_read_models, resolve_match

    with open_read_models(database) as engine:
        stream = resolve_match(engine, match_text)
        found = match_scores(engine, stream)
    if found is None:   # listed a moment ago: only a rebuild running meanwhile removes it
        raise UsageProblem(_("--match {text}: no such match in the read models")
                           .format(text=match_text))
    return stream, found.match.players


@arbiter.command("rotate-secret")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@database_option
def rotate_secret(yes: bool, database: str | None) -> None:
    """Make a new site secret: every seat link given so far stops working and every arbiter
    is logged out of the viewer."""
    if not yes and not click.confirm(_("Every seat link stops working and every arbiter is "
                                       "logged out. Go on?")):
        raise CommandFailed(_("not confirmed: the site secret is unchanged"))
    with accounts(database) as engine:
        rotate_site_secret(engine)
    click.echo(_("new site secret made: the old seat links no longer work; print the new ones "
                 "with 'verbale arbiter links --match ID'"))
