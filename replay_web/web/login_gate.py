"""The gate before a password is checked, at the login and at a ruling's signature (issue 23,
point 9): it slows a guesser and never locks the arbiter out.

- **Brakes** (projections/login_brakes.py, in the store: every process brakes alike). An
  attempt is braked under the name with the address, the address alone and the name alone,
  with delays that grow with the attempts and stop at a cap; an unknown name exactly as a known
  one (it is hashed against a dummy hash too, projections/accounts.py `check_login`).
- **The arbiter's own browser.** A login that succeeds leaves a signed cookie naming the
  arbiter (path /arbiter, HttpOnly). From a browser that holds it for the name typed, the
  attempt is braked under that browser only: someone else guessing the same name, even from
  the same address (a club behind one NAT), does not slow it. From a new browser, someone
  else's failures delay the arbiter by a cap at most.
- **The hash budget.** Checking a password costs a scrypt hash (~0.1-0.2 s of CPU). A token
  bucket per process bounds the hashes per second (VERBALE_LOGIN_HASHES_PER_SECOND, in the
  app's config or the environment, default 2;
  a burst of twice that); over it the answer is 429 with Retry-After and nothing is hashed.
  Browsers that logged in before and rulings' signatures (an arbiter logged in) draw on a
  reserve of their own (RESERVE_PER_SECOND), so a flood of strangers' attempts leaves them
  theirs.

Addresses are as the request gives them: behind a proxy, only with `--behind-proxy` is that the
client's (docs/viewer.md). An IPv6 address counts by its /64, what one client usually holds.
"""

from __future__ import annotations

import ipaddress
import math
import os
import secrets
import threading
from dataclasses import dataclass, field

from flask import Flask, current_app, request
from itsdangerous import BadSignature, URLSafeSerializer
from werkzeug.wrappers import Response

from projections.login_brakes import (
    ACCOUNT,
    ADDRESS,
    DEVICE,
    PAIR,
    SIGNING,
    Keys,
    admit,
    succeeded,
    wait_for,
)
from replay_web.web.app import services

HASHES_PER_SECOND = 2.0
RESERVE_PER_SECOND = 1.0
BROWSER_COOKIE = "verbale_browser"
BROWSER_SECONDS = 365 * 24 * 3600


class HashBudget:
    """A token bucket of password hashes: `rate` a second, `burst` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._tokens: float = burst
        self._at: float | None = None
        self._lock = threading.Lock()

    def take(self, now: float) -> float:
        """0 and one hash taken, or the seconds until one is there (nothing taken)."""
        with self._lock:
            if self._at is not None:
                self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
            self._at = now
            if self._tokens >= 1:
                self._tokens -= 1
                return 0.0
            return (1 - self._tokens) / self.rate


@dataclass(frozen=True)
class Budgets:
    anyone: HashBudget
    reserve: HashBudget = field(default_factory=lambda: HashBudget(RESERVE_PER_SECOND,
                                                                   2 * RESERVE_PER_SECOND))


def set_budgets(app: Flask) -> None:
    """The app's hash budgets, from its config or the environment (create_app); ValueError
    naming VERBALE_LOGIN_HASHES_PER_SECOND if it is not a number from 0.1 to 1000."""
    name = "VERBALE_LOGIN_HASHES_PER_SECOND"
    text = str(app.config.get(name, os.environ.get(name, HASHES_PER_SECOND)))
    try:
        rate = float(text)
    except ValueError:
        rate = math.nan
    if not 0.1 <= rate <= 1000:
        raise ValueError(f"{name}={text}: expected a number of hashes a second, 0.1 to 1000")
    app.extensions["verbale_hash_budgets"] = Budgets(HashBudget(rate, max(2.0, 2 * rate)))


def _budgets() -> Budgets:
    found = current_app.extensions["verbale_hash_budgets"]
    assert isinstance(found, Budgets)
    return found


@dataclass(frozen=True)
class Attempt:
    """The keys an attempt is braked under, those a success clears and those it takes its
    count back from; `known`: from a browser that logged in as the name before."""

    keys: Keys
    cleared: Keys
    taken_back: Keys
    known: bool


def address_key(text: str | None) -> str:
    """The address an attempt is counted under: an IPv4 address, an IPv6 address's /64."""
    try:
        found = ipaddress.ip_address(text or "")
    except ValueError:
        return (text or "")[:100]
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.ip_network(f"{found}/64", strict=False))
    return str(found)


def login_attempt(name: str) -> Attempt:
    """A login as `name` (as typed: a name that exists or not is braked alike)."""
    who = name.casefold()
    browser = _browser_of(who)
    if browser is not None:
        own = {f"browser\0{who}\0{browser}": DEVICE}
        return Attempt(own, own, {}, known=True)
    where = address_key(request.remote_addr)
    pair = {f"pair\0{who}\0{where}": PAIR}
    others = {f"address\0{where}": ADDRESS, f"account\0{who}": ACCOUNT}
    return Attempt({**pair, **others}, pair, others, known=False)


def signing_attempt(name: str) -> Attempt:
    """A ruling's signature by the logged-in arbiter `name`."""
    own = {f"sign\0{name.casefold()}": SIGNING}
    return Attempt(own, own, {}, known=True)


def let_through(attempt: Attempt) -> float:
    """0: check the password now (the attempt is counted); else the seconds to wait, and
    nothing was hashed nor counted."""
    found = services()
    if found.engine is None:
        return 0.0
    now = found.clock()
    wait = wait_for(found.engine, attempt.keys, now)
    if wait > 0:
        return wait
    budgets = _budgets()
    wait = (budgets.reserve if attempt.known else budgets.anyone).take(now)
    if wait > 0:
        return wait
    return admit(found.engine, attempt.keys, now)


def passed(attempt: Attempt) -> None:
    """The password was right: the attempt's counts go as `Attempt` says."""
    engine = services().engine
    if engine is not None:
        succeeded(engine, attempt.cleared, attempt.taken_back)


def retry_after(wait: float) -> int:
    """Whole seconds for a Retry-After header: never 0 for a wait."""
    return max(1, math.ceil(wait - 1e-9))


def _serializer() -> URLSafeSerializer:
    key = current_app.secret_key
    assert key is not None   # create_app sets it
    return URLSafeSerializer(key, salt="verbale browser")


def _browser_of(who: str) -> str | None:
    value = request.cookies.get(BROWSER_COOKIE)
    if not value or len(value) > 300:
        return None
    try:
        found = _serializer().loads(value)
    except BadSignature:
        return None
    if isinstance(found, dict) and found.get("n") == who and isinstance(found.get("b"), str):
        return str(found["b"])
    return None


def remember_browser(response: Response, name: str) -> None:
    """After a login as `name`: this browser is the arbiter's own from now on."""
    value = _serializer().dumps({"n": name.casefold(), "b": secrets.token_urlsafe(16)})
    response.set_cookie(BROWSER_COOKIE, value, max_age=BROWSER_SECONDS, path="/arbiter",
                        httponly=True, samesite="Lax",
                        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))
