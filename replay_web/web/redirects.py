"""`safe_next`: the one check of every `next` the viewer redirects to (the preference switches,
the login form): a path of this site, or the fallback. Never a way out to another site, never a
500 (issue 23, point 7).

A browser reads a `Location` with the WHATWG URL parser: it drops every tab and newline, strips
controls and spaces at both ends, reads a backslash as a slash, and reads `//host` as another
site. So a value is kept only if it is a path, starting with one slash, that holds no control
character (C0, DEL, C1) and no backslash, has no scheme nor host, and stays so once its percent
escapes are decoded (twice: a value decoded once more by whatever follows must not become
`//host` either). Anything else gives the fallback; the value is never repaired.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

DECODINGS = 2


def safe_next(value: object, fallback: str = "/") -> str:
    """`value` if it is a path of this site, else `fallback`."""
    if not isinstance(value, str) or not value:
        return fallback
    text = value
    for _ in range(DECODINGS + 1):
        if not _local_path(text):
            return fallback
        text = unquote(text)
    return value


def _local_path(text: str) -> bool:
    if not text.startswith("/") or text.startswith("//") or "\\" in text:
        return False
    if any(_control(c) for c in text):
        return False
    parts = urlsplit(text)
    return not parts.scheme and not parts.netloc


def _control(char: str) -> bool:
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F or char in "\u2028\u2029"
