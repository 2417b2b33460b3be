"""`verbale arbiter ...` (replay_web/cli_arbiter.py), on SQLite and PostgreSQL: the accounts it
keeps are the ones the viewer checks, and the links it prints carry the seats' tokens."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import cast
from uuid import UUID

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from domain.record.arbiter_keys import Keyring
from projections.accounts import AccountError, check_login, site_secret
from projections.arbiter_signing import signer_for
from projections.read_models.engine import read_model_engine
from projections.sealed_keys import sealed_of
from projections.store.app import MatchStore
from projections.store.signatures import load_keyring
from replay_web.access import check_seat_token
from replay_web.cli import _register, cli
from tests.projections.conftest import Backend
from tests.verbale_cli import run

PASSWORD = "correct horse battery"
LINK = re.compile(r"^seat (\d) \((\w+)\): (\S+)/matches/([0-9a-f-]{36})\?view=seat(\d)"
                  r"&token=([\w-]{43})$")


def typed(text: str, *args: str) -> tuple[int, str]:
    """`verbale ARGS` with `text` typed on standard input."""
    _register()
    result = CliRunner().invoke(cli, list(args), input=text)
    return result.exit_code, result.output


@pytest.fixture
def engine(backend: Backend) -> Iterator[Engine]:
    made = read_model_engine(backend.url)
    yield made
    made.dispose()


KEY_LINE = re.compile(r"^signing key ([0-9a-f]{64}) registered in the record$", re.M)


def _keyring(url: str, name: str) -> Keyring:
    store = MatchStore(url=url, read_only=True)
    try:
        return cast(Keyring, load_keyring(store, name).state)
    finally:
        store.close()


def test_add_list_passwd_remove(backend: Backend, engine: Engine) -> None:
    db = ("--database", backend.url)
    code, out = typed(PASSWORD + "\n", "arbiter", "add", "Rossi", "--password-stdin", *db)
    assert code == 0 and out.startswith("arbiter Rossi added\n"), out
    found = KEY_LINE.search(out)
    assert found is not None, out
    key = found.group(1)
    assert check_login(engine, "Rossi", PASSWORD)
    assert _keyring(backend.url, "Rossi").active() == (key,)   # registered in the record
    assert signer_for(engine, "Rossi", PASSWORD).key == key     # sealed under the password
    code, out = run("arbiter", "list", *db)
    assert code == 0 and re.search(r"^Rossi +\d{4}-\d\d-\d\dT\S+ +" + key[:16] + "$", out,
                                   re.M), out
    assert PASSWORD not in out
    assert typed(f"{PASSWORD}\na new password\n", "arbiter", "passwd", "Rossi",
                 "--password-stdin", *db) == (0, "password of arbiter Rossi changed\n")
    assert check_login(engine, "Rossi", "a new password")
    assert not check_login(engine, "Rossi", PASSWORD)
    assert signer_for(engine, "Rossi", "a new password").key == key   # the same key, resealed
    with pytest.raises(AccountError):
        signer_for(engine, "Rossi", PASSWORD)
    assert typed(f"{PASSWORD}\nyet another one\n", "arbiter", "passwd", "Rossi",
                 "--password-stdin", *db) == (2, "verbale: wrong name or password\n")
    assert run("arbiter", "remove", "Rossi", *db) == (
        0, f"arbiter Rossi removed\nsigning key {key} revoked: it signs nothing from now on\n")
    assert not check_login(engine, "Rossi", "a new password")
    assert _keyring(backend.url, "Rossi").active() == ()
    assert sealed_of(engine, "Rossi") is None
    assert run("arbiter", "list", *db) == \
        (0, "no arbiter yet; 'verbale arbiter add NAME' adds one\n")
    code, out = run("verify", *db)
    assert code == 0 and "keys of arbiter Rossi" in out and "OK" in out, out


def test_a_forgotten_password_gets_a_new_key_and_revokes_the_old(backend: Backend,
                                                                 engine: Engine) -> None:
    db = ("--database", backend.url)
    old = KEY_LINE.search(typed(PASSWORD + "\n", "arbiter", "add", "Rossi",
                                "--password-stdin", *db)[1])
    code, out = typed("a new password\n", "arbiter", "passwd", "Rossi", "--new-key",
                      "--password-stdin", *db)
    new = KEY_LINE.search(out)
    assert code == 0 and old is not None and new is not None, out
    keyring = _keyring(backend.url, "Rossi")
    assert keyring.active() == (new.group(1),) and old.group(1) in keyring.keys
    assert keyring.keys[old.group(1)].revoked is not None
    assert signer_for(engine, "Rossi", "a new password").key == new.group(1)


def test_the_password_is_asked_twice_hidden(backend: Backend, engine: Engine) -> None:
    code, out = typed(f"{PASSWORD}\n{PASSWORD}\n", "arbiter", "add", "Rossi",
                      "--database", backend.url)
    assert code == 0 and out.count("assword") == 2 and PASSWORD not in out, out
    assert check_login(engine, "Rossi", PASSWORD)


def test_refusals_are_one_line_exit_2(backend: Backend) -> None:
    db = ("--database", backend.url)
    assert typed(PASSWORD + "\n", "arbiter", "add", "Rossi", "--password-stdin", *db)[0] == 0
    assert typed(PASSWORD + "\n", "arbiter", "add", "Rossi", "--password-stdin", *db) == \
        (2, "verbale: the arbiter Rossi exists already\n")
    assert typed("short\n", "arbiter", "add", "Verdi", "--password-stdin", *db) == \
        (2, "verbale: the password must be 8 to 1024 characters long\n")
    assert run("arbiter", "remove", "Verdi", *db) == (2, "verbale: no arbiter is named Verdi\n")
    assert typed(f"{PASSWORD}\n{PASSWORD}\n", "arbiter", "passwd", "Verdi", "--password-stdin",
                 *db) == (2, "verbale: no arbiter is named Verdi\n")


def test_a_missing_store_is_not_made_by_list(tmp_path: Path) -> None:
    code, out = run("arbiter", "list", "--database", f"sqlite:///{tmp_path}/none.db")
    assert code == 1 and "does not exist" in out and out.count("\n") == 1, out
    assert not (tmp_path / "none.db").exists()


def _recorded(backend: Backend) -> list[tuple[str, list[str]]]:
    code, out = run("simulate", "matches", "--count", "2", "--store", "--database", backend.url)
    assert code == 0, out
    code, out = run("matches", "--json", "--database", backend.url)
    assert code == 0, out
    return [(m["id"], m["players"]) for m in json.loads(out)["matches"]]


def _links(backend: Backend, match: str) -> list[tuple[str, ...]]:
    code, out = run("arbiter", "links", "--match", match[:8], "--base-url",
                    "https://verbale.example/", "--database", backend.url)
    assert code == 0, out
    found = [LINK.match(line) for line in out.splitlines()]
    assert all(found), out
    return [m.groups() for m in found if m is not None]


def test_links_give_each_seat_its_own_token(backend: Backend, engine: Engine) -> None:
    for match, players in _recorded(backend):
        links = _links(backend, match)
        secret = site_secret(engine)
        assert [(n, p, base, m, v) for n, p, base, m, v, _t in links] == [
            (str(seat + 1), player, "https://verbale.example", match, str(seat + 1))
            for seat, player in enumerate(players)]
        for seat, (*_rest, token) in enumerate(links):
            assert check_seat_token(secret, UUID(match), seat, token)
            assert not check_seat_token(secret, UUID(match), (seat + 1) % len(players), token)
        assert _links(backend, match) == links   # the same links every time


def test_rotating_the_secret_voids_the_links(backend: Backend, engine: Engine) -> None:
    match, _players = _recorded(backend)[0]
    before = _links(backend, match)
    code, out = typed("n\n", "arbiter", "rotate-secret", "--database", backend.url)
    assert code == 1 and _links(backend, match) == before, out
    assert run("arbiter", "rotate-secret", "--yes", "--database", backend.url)[0] == 0
    after = _links(backend, match)
    secret = site_secret(engine)
    assert all(a[5] != b[5] for a, b in zip(after, before, strict=True))
    assert not any(check_seat_token(secret, UUID(match), seat, link[5])
                   for seat, link in enumerate(before))


def test_links_of_an_unknown_match_exit_2(backend: Backend) -> None:
    _recorded(backend)
    code, out = run("arbiter", "links", "--match", "ffffffff", "--database", backend.url)
    assert (code, out) == (2, "verbale: --match ffffffff: no match starts with ffffffff\n")
