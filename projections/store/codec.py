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
from collections.abc import Callable, Hashable, Mapping
from functools import cache, partial
from typing import Any, cast

from domain.cards import DECK, UNKNOWN, Card
from domain.text import Said, said_of, say

JSON = Any


class CodecError(ValueError):
    """Stored data that does not decode into its event type."""


def encode(event: object) -> dict[str, JSON]:
    """The event's fields as JSON, every object's keys inserted in sorted order (so the record
    can be written canonically without sorting again: canonical.presorted_json)."""
    kind = type(event)
    if kind not in _ENCODABLE:
        if not dataclasses.is_dataclass(event) or isinstance(event, type):
            raise CodecError(say("{value} is not an event value", value=repr(event)))
        _ENCODABLE.add(kind)
    return {name: field(getattr(event, name))
            for name, field in _encoders(cast(Hashable, kind))}


_ENCODABLE: set[type] = set()   # dataclass types already seen: the check once per type


Encoder = Callable[[Any], JSON]


@cache
def _encoders(cls: type) -> tuple[tuple[str, Encoder], ...]:
    """(field, encoder) in sorted field order; plain fields and card fields skip `_encode`'s
    dispatch (an import encodes every event)."""
    hints = typing.get_type_hints(cls)
    return tuple((name, _encoder_for(hints[name]))
                 for name in sorted(f.name for f in dataclasses.fields(cls)))


def _encoder_for(hint: Any) -> Encoder:
    plain = {int, str, bool, int | None, str | None}
    if hint in plain:
        return _same
    if hint is Card:
        return _card_code
    if hint == tuple[Card, ...]:
        return _card_codes
    if hint == tuple[tuple[Card, ...], ...]:
        return _hands_codes
    if hint == tuple[tuple[int, Card], ...]:
        return _draws_codes
    if hint in (tuple[int, int], tuple[int, ...], tuple[str, ...]):
        return list
    if hint == tuple[tuple[str, int, int], ...]:
        return _rows
    return _encode


def _same(value: Any) -> JSON:
    return value


# A Card is its deck index (an int): it indexes _CODES directly.
def _card_code(value: Any) -> JSON:
    return _CODES[value]


def _card_codes(value: Any) -> JSON:
    return list(map(_CODES.__getitem__, value))


def _rows(value: Any) -> JSON:
    return [list(row) for row in value]


def _draws_codes(value: Any) -> JSON:
    return [[seat, _CODES[card]] for seat, card in value]


def _hands_codes(value: Any) -> JSON:
    code = _CODES.__getitem__
    return [list(map(code, hand)) for hand in value]


def _encode(value: object) -> JSON:
    kind = type(value)
    if kind is Card:
        return _CODES[cast(Card, value)]
    if kind is int or kind is str or kind is bool or value is None:
        return value
    if kind is tuple or kind is list:
        items: Any = value
        if items and type(items[0]) is Card:
            # A hand, a table, a stock: cards all through (the hot path of an import).
            return list(map(_CODES.__getitem__, items))
        return [_encode(item) for item in items]
    if isinstance(value, Mapping):
        return {str(k): _encode(value[k]) for k in sorted(value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return encode(value)
    raise CodecError(say("cannot store a {kind}: {value}", kind=type(value).__name__,
                         value=repr(value)))


Decoder = Callable[[JSON, str], Any]


def decode(cls: type[Any], data: JSON, where: str | None = None) -> Any:
    """An instance of the dataclass `cls` from its JSON object."""
    decoder: Decoder = _decoder(cast(Hashable, cls))
    return decoder(data, where or cls.__name__)


@cache
def _decoder(hint: Any) -> Decoder:
    """A decoding function for `hint`, built once per type (verify decodes every event)."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        return _optional_decoder(hint)
    if origin is tuple:
        return _tuple_decoder(typing.get_args(hint))
    if origin is Mapping or origin is dict:
        return _decode_mapping
    if hint is Card:
        return _decode_card
    if hint in (int, str, bool):
        return partial(_decode_scalar, hint)
    if dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)  # type: ignore[arg-type]
    raise CodecError(say("no decoding for type {hint}", hint=repr(hint)))


def _dataclass_decoder(cls: type[Any]) -> Decoder:
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    fields = [(n, _decoder(hints[n])) for n in names]
    expected = set(names)

    def run(data: JSON, path: str) -> Any:
        if not isinstance(data, dict):
            raise CodecError(say("{path}: expected an object, got {value}", path=path,
                                 value=_show(data)))
        if data.keys() != expected:
            missing = [n for n in names if n not in data]
            extra = sorted(set(data) - expected)
            raise CodecError(say("{path}: missing fields {missing}, unknown fields {extra}",
                                 path=path, missing=missing, extra=extra))
        values = {n: field(data[n], f"{path}.{n}") for n, field in fields}
        try:
            return cls(**values)
        except (TypeError, ValueError) as error:
            raise CodecError(say("{path}: {reason}", path=path,
                                 reason=said_of(error) or str(error))) from None
    return run


def _optional_decoder(hint: Any) -> Decoder:
    args = typing.get_args(hint)
    options = [a for a in args if a is not type(None)]
    if len(options) != 1:
        raise CodecError(say("unsupported union {hint}", hint=repr(hint)))
    inner = _decoder(options[0])
    nullable = len(options) < len(args)

    def run(value: JSON, path: str) -> Any:
        if value is None and nullable:
            return None
        return inner(value, path)
    return run


def _tuple_decoder(args: tuple[Any, ...]) -> Decoder:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])

        def run_all(value: JSON, path: str) -> tuple[Any, ...]:
            if not isinstance(value, list):
                raise CodecError(say("{path}: expected a list, got {value}", path=path,
                                     value=_show(value)))
            return tuple([item(v, f"{path}[{i}]") for i, v in enumerate(value)])
        return run_all
    items = [_decoder(a) for a in args]

    def run_fixed(value: JSON, path: str) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise CodecError(say("{path}: expected a list, got {value}", path=path,
                                 value=_show(value)))
        if len(value) != len(items):
            raise CodecError(say("{path}: expected {count} items, got {found}", path=path,
                                 count=len(items), found=len(value)))
        return tuple([d(v, f"{path}[{i}]") for i, (d, v) in enumerate(zip(items, value,
                                                                          strict=True))])
    return run_fixed


def _decode_mapping(value: JSON, path: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise CodecError(say("{path}: expected an object of strings, got {value}", path=path,
                             value=_show(value)))
    return dict(value)


# The unknown card (`??`, index 40) of transcribed records follows the deck.
_CARDS_BY_CODE = {c.code: c for c in (*DECK, UNKNOWN)}
_CODES = tuple(c.code for c in (*DECK, UNKNOWN))


def _decode_card(value: JSON, path: str) -> Card:
    card = _CARDS_BY_CODE.get(value) if isinstance(value, str) else None
    if card is None:
        raise CodecError(say("{path}: expected a card code such as 7d or Rc, got {value}",
                             path=path, value=_show(value)))
    return card


def _decode_scalar(hint: type, value: JSON, path: str) -> Any:
    if type(value) is not hint:
        raise CodecError(wrong_type(path, hint, value))
    return value


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
