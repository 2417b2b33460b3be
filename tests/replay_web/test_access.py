"""Seat link tokens and the cookie key (replay_web/access.py)."""

from __future__ import annotations

import string
from uuid import UUID

from hypothesis import given
from hypothesis import strategies as st

from replay_web.access import check_seat_token, flask_secret_key, seat_token

secrets_ = st.binary(min_size=32, max_size=32)
matches = st.uuids()
seats = st.integers(min_value=0, max_value=3)
ALPHABET = string.ascii_letters + string.digits + "-_"


@given(secrets_, matches, seats)
def test_a_token_opens_its_own_seat(secret: bytes, match: UUID, seat: int) -> None:
    token = seat_token(secret, match, seat)
    assert len(token) == 43 and set(token) <= set(ALPHABET)
    assert check_seat_token(secret, match, seat, token)
    assert token == seat_token(secret, match, seat)


@given(secrets_, matches, seats, seats, matches)
def test_a_token_opens_no_other_seat_or_match(secret: bytes, match: UUID, seat: int,
                                              other_seat: int, other_match: UUID) -> None:
    token = seat_token(secret, match, seat)
    if other_seat != seat:
        assert not check_seat_token(secret, match, other_seat, token)
    if other_match != match:
        assert not check_seat_token(secret, other_match, seat, token)


@given(secrets_, secrets_, matches, seats)
def test_another_secret_voids_the_token(secret: bytes, other: bytes, match: UUID,
                                        seat: int) -> None:
    token = seat_token(secret, match, seat)
    assert check_seat_token(other, match, seat, token) == (other == secret)


@given(secrets_, matches, seats, st.integers(min_value=0, max_value=42),
       st.sampled_from(ALPHABET + "=+/é\0 "))
def test_any_change_of_one_character_fails(secret: bytes, match: UUID, seat: int, at: int,
                                           char: str) -> None:
    token = seat_token(secret, match, seat)
    changed = token[:at] + char + token[at + 1:]
    assert check_seat_token(secret, match, seat, changed) == (changed == token)


@given(secrets_, matches, seats, st.one_of(st.none(), st.text(max_size=60)))
def test_garbage_is_refused_without_raising(secret: bytes, match: UUID, seat: int,
                                            garbage: str | None) -> None:
    expected = seat_token(secret, match, seat)
    assert check_seat_token(secret, match, seat, garbage) == (garbage == expected)


def test_short_long_and_empty_tokens_are_refused() -> None:
    secret, match = bytes(32), UUID(int=7)
    token = seat_token(secret, match, 1)
    for wrong in ("", None, token[:-1], token + "A", token + "=", " " + token[1:]):
        assert not check_seat_token(secret, match, 1, wrong)
    assert not check_seat_token(secret, match, -1, token)
    assert not check_seat_token(secret, match, 256, token)


@given(secrets_)
def test_the_cookie_key_is_not_a_seat_token_key(secret: bytes) -> None:
    key = flask_secret_key(secret)
    assert len(key) == 32 and key != secret
    assert key == flask_secret_key(secret)
