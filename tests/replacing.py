"""`replace(value, **changes)` for the tests' frozen values: events are msgspec Structs
(domain/events.py `Fact`), states, commands and reports frozen dataclasses."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")


def replace(value: T, /, **changes: Any) -> T:
    if isinstance(value, msgspec.Struct):
        return msgspec.structs.replace(value, **changes)
    return dataclasses.replace(value, **changes)  # type: ignore[type-var]
