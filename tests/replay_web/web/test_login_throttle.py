"""Issue 23, point 9: login brakes that slow a guesser and cannot lock the arbiter out, on
SQLite and PostgreSQL, with the app's clock set by the test (nothing sleeps, nothing is timed).

- wrong passwords slow the next attempts of that name from that address, by growing delays up
  to a cap; an unknown name the same, attempt for attempt;
- the arbiter's own browser (it logged in before) is never slowed by someone else's failures,
  not even from the same address (a club behind one NAT); another address waits at most the cap;
- the password hashes verified per second are bounded: over the budget, 429 and Retry-After
  without hashing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from werkzeug.security import check_password_hash

from projections.accounts import add_arbiter
from projections.login_brakes import ACCOUNT, ADDRESS, PAIR, Brake, delay
from replay_web.web.app import create_app
from tests.projections.conftest import make_backend
from tests.replay_web.web.conftest import close_app
from tests.replay_web.web.test_arbiter import _token

NAME, PASSWORD = "Rossi", "una-password-lunga"
CAP = max(b.cap for b in (PAIR, ADDRESS, ACCOUNT))


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", "postgres"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Flask, Clock]]:
    for backend in make_backend(request.param, tmp_path):
        app = create_app(backend.url, config={"TESTING": True})
        clock = Clock()
        app.extensions["verbale"].clock = clock
        add_arbiter(app.extensions["verbale"].engine, NAME, PASSWORD)
        yield app, clock
        close_app(app)


@pytest.fixture
def hashes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The password hashes checked, counted where the accounts check them."""
    counted: list[str] = []

    def counting(stored: str, password: str) -> bool:
        counted.append(password)
        return check_password_hash(stored, password)

    monkeypatch.setattr("projections.accounts.check_password_hash", counting)
    return counted


def attempt(client: FlaskClient, address: str, name: str = NAME,
            password: str = "sbagliata") -> tuple[int, float | None]:
    """A login from `address`: the status and the Retry-After asked for (None: none)."""
    page = client.get("/arbiter/login", environ_base={"REMOTE_ADDR": address})
    response = client.post("/arbiter/login", environ_base={"REMOTE_ADDR": address},
                           data={"csrf_token": _token(page.get_data(as_text=True)),
                                 "name": name, "password": password, "next": "/"})
    after = response.headers.get("Retry-After")
    return response.status_code, None if after is None else float(after)


def guess_on(app: Flask, clock: Clock, address: str, times: int, name: str = NAME,
             pause: float = 0.0) -> list[tuple[int, float | None]]:
    """`times` wrong passwords for `name` from `address`, each waiting what the last 429
    asked for (and `pause` more): a guesser who goes as fast as the brakes let it."""
    client, seen = app.test_client(), []
    for _ in range(times):
        code, after = attempt(client, address, name)
        seen.append((code, after))
        clock.now += (after or 0.0) + pause
    return seen


@given(st.integers(min_value=0, max_value=200))
def test_the_delay_grows_and_is_capped(failures: int) -> None:
    for brake in (PAIR, ADDRESS, ACCOUNT):
        assert 0 <= delay(failures, brake) <= delay(failures + 1, brake) <= brake.cap
    assert delay(0, Brake(free=3, cap=60)) == 0
    assert delay(3, Brake(free=3, cap=60)) > 0


def test_wrong_passwords_bring_growing_delays(site: tuple[Flask, Clock]) -> None:
    app, clock = site
    seen = guess_on(app, clock, "10.0.0.1", 14, pause=0.1)
    waits = [after for code, after in seen if code == 429 and after is not None]
    assert waits, "never slowed"
    assert all(code in (200, 429) for code, _ in seen)
    assert waits == sorted(waits) and waits[-1] > waits[0]
    assert max(waits) <= CAP
    # A 429 tells when to come back: coming back then is served.
    code, after = attempt(app.test_client(), "10.0.0.1")
    if code == 200:   # the guesser's last wait was just over: this one was let through
        code, after = attempt(app.test_client(), "10.0.0.1")
    assert code == 429 and after is not None
    clock.now += after
    assert attempt(app.test_client(), "10.0.0.1")[0] == 200


def test_unknown_names_are_slowed_the_same(site: tuple[Flask, Clock]) -> None:
    app, clock = site
    known = guess_on(app, clock, "10.0.0.1", 10, NAME)
    unknown = guess_on(app, clock, "10.0.0.2", 10, "Nessuno")
    assert unknown == known
    assert any(code == 429 for code, _ in unknown)


def test_many_names_from_one_address_are_slowed(site: tuple[Flask, Clock]) -> None:
    """A different (unknown) name at each attempt meets no name's brake: the address's own
    brake slows it, with growing delays."""
    app, clock = site
    client, seen = app.test_client(), []
    for n in range(30):
        code, after = attempt(client, "10.0.0.1", name=f"nome{n}")
        seen.append((code, after))
        clock.now += (after or 0.0) + 1.0   # within the hash budget: only the brakes speak
    waits = [after for code, after in seen if code == 429 and after is not None]
    assert waits and waits == sorted(waits) and max(waits) <= CAP


def test_a_429_hashes_nothing(site: tuple[Flask, Clock], hashes: list[str]) -> None:
    app, _clock = site
    client = app.test_client()
    codes = [attempt(client, "10.0.0.1")[0] for _ in range(12)]   # the clock stands still
    assert 429 in codes
    assert len(hashes) == codes.count(200)


def test_the_arbiters_browser_gets_in_behind_the_same_nat(site: tuple[Flask, Clock]) -> None:
    """The arbiter logged in from this browser before; then someone behind the same address
    guesses their password on and on: the arbiter's browser still gets in at once."""
    app, clock = site
    arbiter = app.test_client()
    assert attempt(arbiter, "10.0.0.1", password=PASSWORD)[0] == 303
    arbiter.delete_cookie("session")   # logged out (the login's cookie gone; the browser's stays)
    seen = guess_on(app, clock, "10.0.0.1", 30)
    assert seen[-1][0] == 429
    assert attempt(arbiter, "10.0.0.1", password=PASSWORD)[0] == 303


def test_a_new_browser_waits_at_most_the_cap(site: tuple[Flask, Clock]) -> None:
    """Someone else's failures on the account, from this address or another, delay the
    arbiter's first login from a new browser by at most the cap, never lock it out."""
    app, clock = site
    for address in ("10.0.0.1", "10.9.9.9"):
        guess_on(app, clock, "10.0.0.1", 40)
        client = app.test_client()
        code, after = attempt(client, address, password=PASSWORD)
        if code == 429:
            assert after is not None and after <= CAP
            clock.now += after
            code, after = attempt(client, address, password=PASSWORD)
        assert code == 303, (address, after)


def test_others_failures_elsewhere_do_not_touch_this_address(site: tuple[Flask, Clock]
                                                            ) -> None:
    app, clock = site
    guess_on(app, clock, "10.0.0.1", 6)   # few: the account's own brake is not reached
    assert attempt(app.test_client(), "10.0.0.2", password=PASSWORD)[0] == 303


def test_a_login_clears_this_browsers_failures(site: tuple[Flask, Clock]) -> None:
    app, clock = site
    client = app.test_client()
    for _ in range(3):
        assert attempt(client, "10.0.0.1")[0] == 200
    assert attempt(client, "10.0.0.1", password=PASSWORD) == (429, 1.0)
    clock.now += 1.0
    assert attempt(client, "10.0.0.1", password=PASSWORD)[0] == 303
    client.delete_cookie("verbale_browser", path="/arbiter")   # as a new browser
    clock.now += 5.0   # the hash budget filled again
    for _ in range(3):   # counted from nothing again
        assert attempt(client, "10.0.0.1")[0] == 200


def test_the_hashes_per_second_are_bounded(site: tuple[Flask, Clock],
                                           hashes: list[str]) -> None:
    """Many names from many addresses at one instant: no brake of a name or an address is
    reached, but only the budget's hashes are done; the rest get 429 and Retry-After."""
    app, clock = site
    seen = [attempt(app.test_client(), f"10.1.{n}.1", name=f"nome{n}") for n in range(30)]
    refused = [after for code, after in seen if code == 429]
    assert refused and all(after is not None and after > 0 for after in refused)
    assert len(hashes) == len(seen) - len(refused) < 10
    clock.now += 10.0   # the budget fills again with time
    assert attempt(app.test_client(), "10.2.0.1", name="altro")[0] == 200


def test_the_budget_is_set_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from replay_web.web.records import HeldReplays

    monkeypatch.setenv("VERBALE_LOGIN_HASHES_PER_SECOND", "5")
    app = create_app(replays=HeldReplays({}), secret=b"b" * 32)
    assert app.extensions["verbale_hash_budgets"].anyone.rate == 5.0
    for bad in ("many", "0", "nan"):
        monkeypatch.setenv("VERBALE_LOGIN_HASHES_PER_SECOND", bad)
        with pytest.raises(ValueError, match=f"VERBALE_LOGIN_HASHES_PER_SECOND={bad}"):
            create_app(replays=HeldReplays({}), secret=b"b" * 32)
