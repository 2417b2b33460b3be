"""Who may see what in the viewer: the seats' link tokens and the key of the viewer's cookie.

A seat's link token is an HMAC-SHA256, keyed by the site secret (projections/accounts.py
`site_secret`), of the match and the seat. An HMAC rather than random tokens stored in a table:
there is no table of tokens to keep, copy or leak, the arbiter can print a seat's link again at
any time, and every link is revoked at once by rotating the secret (`rotate_site_secret`, which
logs every arbiter out too). Without the secret a token cannot be guessed (256 bits of key) and
the token of one seat says nothing of another's.

The cookie key is derived from the same secret under another label, so that a seat token is
never a value signed with the cookie key, nor the other way round.

Seats are 0-based here, as everywhere inside verbale; URLs and messages count them from 1.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from uuid import UUID

TOKEN_LABEL = b"verbale seat link v1\0"
COOKIE_LABEL = b"verbale flask session key v1\0"
TOKEN_BYTES = 32
TOKEN_CHARS = 43   # base64 of 32 bytes, no padding


def seat_token(secret: bytes, match_id: UUID, seat: int) -> str:
    """The link token of `seat` (0-based, 0..255) in the match `match_id`: 43 URL-safe
    characters."""
    if not 0 <= seat <= 255:
        raise ValueError(f"seat {seat} is not 0..255")
    mac = hmac.new(secret, TOKEN_LABEL + match_id.bytes + bytes([seat]), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:TOKEN_BYTES]).rstrip(b"=").decode("ascii")


def check_seat_token(secret: bytes, match_id: UUID, seat: int, token: str | None) -> bool:
    """Whether `token` is the link token of `seat` in `match_id` (compared in constant time).
    False for anything else, None and garbage included; never raises."""
    if not isinstance(token, str) or len(token) != TOKEN_CHARS or not 0 <= seat <= 255 \
            or not isinstance(match_id, UUID):
        return False
    try:
        given = token.encode("ascii")
    except UnicodeEncodeError:
        return False
    return hmac.compare_digest(given, seat_token(secret, match_id, seat).encode("ascii"))


def flask_secret_key(secret: bytes) -> bytes:
    """The viewer's cookie key (Flask SECRET_KEY): from the site secret, under its own label."""
    return hmac.new(secret, COOKIE_LABEL, hashlib.sha256).digest()
