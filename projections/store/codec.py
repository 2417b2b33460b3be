"""Domain events to the JSON of a record's `data`, and back, with msgspec.

Events are frozen msgspec Structs (domain/events.py `Fact`). Cards are their compact code
("7d", "??" for the unknown card), tuples are lists, mappings are objects, a nested value
(TimeControl) is an object of its fields; every object's keys are written sorted by code point,
so the bytes are docs/events.md's canonical JSON (the same bytes as json.dumps with sort_keys,
no whitespace and ensure_ascii off: tests/projections/store/test_msgspec_codec.py). Decoding is
strict and straight from the stored bytes: every field present, no extra field, each value of
the declared type, cards in their canonical code; a bad value is reported with its path
(`CardPlayed.capture[1]`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Hashable
from functools import cache
from typing import Any, cast

import msgspec

from domain.cards import DECK, UNKNOWN, Card
from domain.text import Said, said_of, say

JSON = Any


class CodecError(ValueError):
    """Stored data that does not decode into its event type."""


# The unknown card (`??`, index 40) of transcribed records follows the deck; a Card is its deck
# index (an int), so it indexes _CODES directly.
_CARDS_BY_CODE = {c.code: c for c in (*DECK, UNKNOWN)}
_CODES = tuple(c.code for c in (*DECK, UNKNOWN))


def _encode_other(value: Any) -> JSON:
    """msgspec's hook for what it does not write itself: a Card (an int subclass) is its code,
    any other subclass of str or int is written as its plain value (as json.dumps writes it)."""
    if isinstance(value, Card):   # the unknown card `??` is a Card's subclass
        return _CODES[value]
    if isinstance(value, str):   # a message kept as its template (domain.text.Said)
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    raise CodecError(say("cannot store a {kind}: {value}", kind=type(value).__name__,
                         value=repr(value)))


_ENCODER = msgspec.json.Encoder(enc_hook=_encode_other, order="sorted")


def encode(event: object) -> dict[str, JSON]:
    """The event's fields as plain values (cards as codes), keys in sorted order: what
    `json_bytes` writes for it."""
    if not _is_value(event):
        raise CodecError(say("{value} is not an event value", value=repr(event)))
    data: dict[str, JSON] = msgspec.to_builtins(event, enc_hook=_encode_other, order="sorted")
    return data


def json_bytes(value: object) -> bytes:
    """The canonical JSON of `value`: plain values, events and records holding events."""
    return _ENCODER.encode(value)


def _is_value(value: object) -> bool:
    return isinstance(value, msgspec.Struct) or (dataclasses.is_dataclass(value)
                                                and not isinstance(value, type))


def _decode_other(kind: type, value: JSON) -> Any:
    """msgspec's hook for the types it does not know: a Card from its code."""
    if kind is Card:
        card = _CARDS_BY_CODE.get(value) if isinstance(value, str) else None
        if card is None:
            raise ValueError(f"expected a card code such as 7d or Rc, got {_show(value)}")
        return card
    raise NotImplementedError


def decode(cls: type[Any], data: JSON, where: str | None = None) -> Any:
    """An instance of `cls` from its plain JSON value (an upcast record's `data`)."""
    try:
        return msgspec.convert(data, cls, dec_hook=_decode_other)
    except msgspec.ValidationError as error:
        raise _path_error(error, where or cls.__name__, "$") from None
    except (TypeError, ValueError) as error:
        raise CodecError(say("{path}: {reason}", path=where or cls.__name__,
                             reason=said_of(error) or str(error))) from None


class _Data(msgspec.Struct):
    """A record read for its `data` only (the other fields are skipped, not built)."""

    data: Any


@cache
def _record_decoder(cls: type[Any]) -> msgspec.json.Decoder[Any]:
    record = msgspec.defstruct(f"{cls.__name__}Record", [("data", cls)], bases=(_Data,))
    return msgspec.json.Decoder(record, dec_hook=_decode_other)


def decode_record(cls: type[Any], state: bytes, where: str) -> Any:
    """The `data` of the stored record `state` as an instance of `cls`, decoded straight from
    the bytes (a record already in `cls`'s newest layout)."""
    try:
        return _record_decoder(cast(Hashable, cls)).decode(state).data
    except msgspec.ValidationError as error:
        raise _path_error(error, where, "$.data") from None
    except msgspec.DecodeError as error:
        raise CodecError(say("{path}: {reason}", path=where, reason=str(error))) from None


def record_decoder(record: type[Any]) -> msgspec.json.Decoder[Any]:
    """A decoder of whole stored records typed as `record` (a Struct whose fields hold events
    and values of the codec: cards from their codes), straight from the bytes."""
    return msgspec.json.Decoder(record, dec_hook=_decode_other)


_AT = re.compile(r"^(?P<reason>.*) - at `(?P<path>[^`]*)`$", re.DOTALL)


def _path_error(error: msgspec.ValidationError, where: str, root: str) -> CodecError:
    """msgspec's `reason - at `$.data.capture[1]`` as `CardPlayed (event 5).capture[1]: reason`."""
    text = str(error)
    found = _AT.match(text)
    reason, path = (found["reason"], found["path"]) if found else (text, root)
    inner = path[len(root):] if path.startswith(root) else path.removeprefix("$")
    return CodecError(say("{path}: {reason}", path=where + inner, reason=reason))


def wrong_type(path: str, kind: type, value: JSON) -> Said:
    """A value at `path` that is not the JSON of `kind` (str, int or bool)."""
    shown = _show(value)
    if kind is int:
        return say("{path}: expected an integer, got {value}", path=path, value=shown)
    if kind is bool:
        return say("{path}: expected true or false, got {value}", path=path, value=shown)
    if kind is str:
        return say("{path}: expected a string, got {value}", path=path, value=shown)
    return say("{path}: expected {kind}, got {value}", path=path, kind=kind.__name__,
               value=shown)


def _show(value: JSON) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
