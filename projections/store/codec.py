"""Domain events to the plain JSON of a record's `data`, and back, driven by their type hints.

Cards are their compact code ("7d"), tuples are lists, mappings are objects, a nested value
object (TimeControl) is an object of its fields. Decoding is strict: every field present, no
extra field, each value of the declared type, cards in their canonical code; a bad value is
reported with its path (`CardPlayed.capture[1]`).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any

from domain.cards import Card, CardParseError, parse_card

JSON = Any


class CodecError(ValueError):
    """Stored data that does not decode into its event type."""


def encode(event: object) -> dict[str, JSON]:
    if not dataclasses.is_dataclass(event) or isinstance(event, type):
        raise CodecError(f"{event!r} is not an event value")
    return {f.name: _encode(getattr(event, f.name)) for f in dataclasses.fields(event)}


def _encode(value: object) -> JSON:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, tuple | list):
        return [_encode(item) for item in value]
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return encode(value)
    raise CodecError(f"cannot store a {type(value).__name__}: {value!r}")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(cls: type[Any], data: JSON, where: str | None = None) -> Any:
    """An instance of the dataclass `cls` from its JSON object."""
    path = where or cls.__name__
    if not isinstance(data, dict):
        raise CodecError(f"{path}: expected an object, got {_show(data)}")
    names = [f.name for f in dataclasses.fields(cls)]
    missing = [n for n in names if n not in data]
    extra = sorted(set(data) - set(names))
    if missing or extra:
        raise CodecError(f"{path}: missing fields {missing}, unknown fields {extra}")
    hints = _hints(cls)
    values = {n: _decode(hints[n], data[n], f"{path}.{n}") for n in names}
    try:
        return cls(**values)
    except (TypeError, ValueError) as error:
        raise CodecError(f"{path}: {error}") from None


def _decode(hint: Any, value: JSON, path: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        return _decode_optional(hint, value, path)
    if origin is tuple:
        return _decode_tuple(typing.get_args(hint), value, path)
    if origin is Mapping or origin is dict:
        return _decode_mapping(value, path)
    if hint is Card:
        return _decode_card(value, path)
    if hint in (int, str, bool):
        return _decode_scalar(hint, value, path)
    if dataclasses.is_dataclass(hint):
        return decode(hint, value, path)
    raise CodecError(f"{path}: no decoding for type {hint!r}")


def _decode_optional(hint: Any, value: JSON, path: str) -> Any:
    options = [a for a in typing.get_args(hint) if a is not type(None)]
    if value is None and len(options) < len(typing.get_args(hint)):
        return None
    if len(options) != 1:
        raise CodecError(f"{path}: unsupported union {hint!r}")
    return _decode(options[0], value, path)


def _decode_tuple(args: tuple[Any, ...], value: JSON, path: str) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise CodecError(f"{path}: expected a list, got {_show(value)}")
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_decode(args[0], item, f"{path}[{i}]") for i, item in enumerate(value))
    if len(value) != len(args):
        raise CodecError(f"{path}: expected {len(args)} items, got {len(value)}")
    return tuple(_decode(a, item, f"{path}[{i}]") for i, (a, item) in enumerate(zip(args, value,
                                                                                   strict=True)))


def _decode_mapping(value: JSON, path: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise CodecError(f"{path}: expected an object of strings, got {_show(value)}")
    return dict(value)


def _decode_card(value: JSON, path: str) -> Card:
    if not isinstance(value, str):
        raise CodecError(f"{path}: expected a card code, got {_show(value)}")
    try:
        card = parse_card(value)
    except CardParseError:
        raise CodecError(f"{path}: {value!r} is not a card code") from None
    if card.code != value:
        raise CodecError(f"{path}: card {value!r} is not written as its code {card.code!r}")
    return card


def _decode_scalar(hint: type, value: JSON, path: str) -> Any:
    if type(value) is not hint:
        raise CodecError(f"{path}: expected {hint.__name__}, got {_show(value)}")
    return value


def _show(value: JSON) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
