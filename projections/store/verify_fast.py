"""The fast path of `verbale verify` (issue 13): work verify did twice, done once, and nothing
it checks taken on trust.

- The stored JSON is parsed once: the record the structure check parsed from a row's bytes (the
  same `json.loads` of the same bytes) is what the row's event is decoded from, through the
  store's own mapper and upcasters. Nothing else reads that record after the structure check.
- A timestamp's text is parsed once per distinct text (the events of one action share theirs):
  `parse_stamp` is a pure function of the text; a text that fails is parsed again each time, so
  every failure is still reported where it is.
- An envelope (`recorded_by`) is decoded once per distinct content that decodes; a content that
  does not is decoded at each event, its message naming that event.
- The canonical JSON a record is compared with is made by a C encoder made once, with the very
  settings of `canonical_json` (json.dumps makes a new encoder for every record).

`exact()` turns the fast path off for its block, the lean path (verify_lean.py) with it: the
tests compare verify's findings with and without them (tests/projections/store/
test_verify_fast.py). `without_lean()` turns off the lean path only (for the benchmark).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import lru_cache
from typing import Any, cast

from eventsourcing.persistence import Mapper

from domain.record.clock import parse_stamp
from projections.store.app import CanonicalTranscoder, ChainMapper
from projections.store.canonical import canonical_json

_fast = [True]


@contextmanager
def exact() -> Iterator[None]:
    """verify without the fast path, within the block (for the tests that compare both)."""
    with _turned_off(_fast):
        yield


def enabled() -> bool:
    return _fast[-1]


_lean = [True]


@contextmanager
def without_lean() -> Iterator[None]:
    """verify with this module's fast path but not the lean path (verify_lean.py), within the
    block: what verify did before the lean path, for the benchmark to compare with."""
    with _turned_off(_lean):
        yield


@contextmanager
def _turned_off(switch: list[bool]) -> Iterator[None]:
    """`switch` off within the block (a stack: blocks nest), as it was after."""
    switch.append(False)
    try:
        yield
    finally:
        switch.pop()


def lean() -> bool:
    """The lean path is on: neither `exact` nor `without_lean` holds."""
    return _fast[-1] and _lean[-1]


class ParsedOnce(CanonicalTranscoder):
    """The transcoder of one stream's decoding: a row whose record was parsed already is not
    parsed again."""

    def __init__(self) -> None:
        self.ready: dict[bytes, Any] = {}

    def keep(self, state: bytes, record: dict[str, Any]) -> None:
        self.ready[state] = record

    def decode(self, data: bytes) -> Any:
        record = self.ready.pop(data, None)
        return super().decode(data) if record is None else record

    def mapper(self) -> Mapper[Any]:
        return ChainMapper(transcoder=self)


def parsed_once() -> ParsedOnce | None:
    """A stream's shared parse, or None when the fast path is off."""
    return ParsedOnce() if enabled() else None


def keeper(parsed: ParsedOnce | None) -> Callable[[bytes, dict[str, Any]], None] | None:
    return None if parsed is None else parsed.keep


@lru_cache(maxsize=4096)
def _stamp(text: str) -> datetime:
    return parse_stamp(text)


def stamp(text: Any) -> datetime:
    """parse_stamp, each distinct text parsed once (failures are not kept: parsed each time)."""
    if enabled() and type(text) is str:
        return _stamp(text)
    return parse_stamp(text)


EnvelopeKey = tuple[tuple[str, str | None], ...]
_ENVELOPES: set[EnvelopeKey] = set()
_TEXT = {str, type(None)}


def envelope_key(envelope: object) -> EnvelopeKey | None:
    """The content of an envelope as a key, its fields in their stored order, or None when it
    is not an object of strings and nulls only (no other value is remembered: 1 and True would
    be one key) or the fast path is off."""
    if not enabled() or type(envelope) is not dict or set(map(type, envelope.values())) - _TEXT:
        return None
    return tuple(envelope.items())


def envelope_known(key: EnvelopeKey | None) -> bool:
    """This content decoded before."""
    return key is not None and key in _ENVELOPES


def envelope_decoded(key: EnvelopeKey | None) -> None:
    if key is not None and len(_ENVELOPES) < 4096:
        _ENVELOPES.add(key)


def _sorted_encoder() -> Callable[[Any, int], Any] | None:
    """canonical_json's encoder (keys sorted, no whitespace, no NaN, non-ASCII as itself),
    made once; None where the C encoder is missing."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    like = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                            allow_nan=False)
    return cast(Callable[[Any, int], Any],
                make(None, like.default, json.encoder.encode_basestring, None, ":", ",", True,
                     False, False))


_sorted_chunks = _sorted_encoder()


def canonical(record: dict[str, Any]) -> bytes:
    """canonical_json(record, checked=False): the same bytes."""
    if _sorted_chunks is None or not enabled():
        return canonical_json(record, checked=False)
    return "".join(_sorted_chunks(record, 0)).encode("utf-8")
