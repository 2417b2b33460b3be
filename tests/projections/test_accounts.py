"""The viewer's accounts and site secret (projections/accounts.py), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import Engine, select

from projections.accounts import (
    AccountError,
    add_arbiter,
    arbiters,
    arbitri,
    check_login,
    remove_arbiter,
    rotate_site_secret,
    set_password,
    site_secret,
)
from projections.read_models.engine import read_model_engine
from projections.read_models.project import rebuild
from projections.store.app import MatchStore
from tests.projections.conftest import Backend

PASSWORD = "correct horse battery"


@pytest.fixture
def engine(backend: Backend) -> Iterator[Engine]:
    """The engine of a new, empty store's database (the store made first: on PostgreSQL it
    makes the schema)."""
    MatchStore(url=backend.url).close()
    made = read_model_engine(backend.url)
    yield made
    made.dispose()


def test_an_arbiter_logs_in_with_the_password_only(engine: Engine) -> None:
    add_arbiter(engine, "Rossi", PASSWORD)
    assert check_login(engine, "Rossi", PASSWORD)
    assert not check_login(engine, "Rossi", PASSWORD + "!")
    assert not check_login(engine, "Rossi", "")
    assert not check_login(engine, "rossi", PASSWORD)
    assert not check_login(engine, "Bianchi", PASSWORD)


def test_the_password_is_not_stored(engine: Engine) -> None:
    add_arbiter(engine, "Rossi", PASSWORD)
    with engine.connect() as conn:
        stored = conn.execute(select(arbitri.c.password_hash)).scalar_one()
    assert PASSWORD not in stored and stored.startswith("scrypt:")


def test_no_tables_no_login_and_no_arbiter(engine: Engine) -> None:
    assert arbiters(engine) == []
    assert not check_login(engine, "Rossi", PASSWORD)


def test_arbiters_are_listed_by_name_with_their_creation(engine: Engine) -> None:
    add_arbiter(engine, "Verdi", PASSWORD)
    add_arbiter(engine, "Bianchi", PASSWORD)
    listed = arbiters(engine)
    assert [a.name for a in listed] == ["Bianchi", "Verdi"]
    assert all(a.created.endswith("+00:00") for a in listed)


def test_a_name_is_added_once(engine: Engine) -> None:
    add_arbiter(engine, "Rossi", PASSWORD)
    with pytest.raises(AccountError, match="exists already"):
        add_arbiter(engine, "Rossi", "another password")
    assert check_login(engine, "Rossi", PASSWORD)


@pytest.mark.parametrize("name", ["", " Rossi", "Rossi ", "a\nb", "x" * 65])
def test_bad_names_are_refused(engine: Engine, name: str) -> None:
    with pytest.raises(AccountError, match="name"):
        add_arbiter(engine, name, PASSWORD)
    assert arbiters(engine) == []


def test_short_passwords_are_refused(engine: Engine) -> None:
    with pytest.raises(AccountError, match="password"):
        add_arbiter(engine, "Rossi", "1234567")
    add_arbiter(engine, "Rossi", "12345678")
    with pytest.raises(AccountError, match="password"):
        set_password(engine, "Rossi", "short")
    assert check_login(engine, "Rossi", "12345678")


def test_a_new_password_replaces_the_old(engine: Engine) -> None:
    add_arbiter(engine, "Rossi", PASSWORD)
    set_password(engine, "Rossi", "a new password")
    assert check_login(engine, "Rossi", "a new password")
    assert not check_login(engine, "Rossi", PASSWORD)
    with pytest.raises(AccountError, match="no arbiter is named Bianchi"):
        set_password(engine, "Bianchi", "a new password")


def test_a_removed_arbiter_cannot_log_in(engine: Engine) -> None:
    add_arbiter(engine, "Rossi", PASSWORD)
    add_arbiter(engine, "Verdi", PASSWORD)
    remove_arbiter(engine, "Rossi")
    assert not check_login(engine, "Rossi", PASSWORD)
    assert [a.name for a in arbiters(engine)] == ["Verdi"]
    with pytest.raises(AccountError, match="no arbiter is named Rossi"):
        remove_arbiter(engine, "Rossi")


def test_the_secret_is_made_once(engine: Engine, backend: Backend) -> None:
    first = site_secret(engine)
    other = read_model_engine(backend.url)
    try:
        assert site_secret(other) == first == site_secret(engine)
    finally:
        other.dispose()
    assert len(first) == 32


def test_engines_starting_together_agree_on_one_secret(backend: Backend) -> None:
    MatchStore(url=backend.url).close()
    engines = [read_model_engine(backend.url) for _ in range(4)]
    try:
        with ThreadPoolExecutor(len(engines)) as pool:
            found = set(pool.map(site_secret, engines))
    finally:
        for made in engines:
            made.dispose()
    assert len(found) == 1


def test_rotation_makes_another_secret(engine: Engine) -> None:
    before = site_secret(engine)
    rotate_site_secret(engine)
    after = site_secret(engine)
    assert after != before and site_secret(engine) == after


def test_a_rebuild_of_the_read_models_keeps_the_accounts(engine: Engine,
                                                           backend: Backend) -> None:
    add_arbiter(engine, "Rossi", PASSWORD)
    secret = site_secret(engine)
    store = MatchStore(url=backend.url)
    try:
        rebuild(store, engine)
        rebuild(store, engine)
    finally:
        store.close()
    assert check_login(engine, "Rossi", PASSWORD)
    assert site_secret(engine) == secret
