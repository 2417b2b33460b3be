"""Instances of a frozen, slotted dataclass built at about half the cost of calling the class.

A frozen dataclass's `__init__` sets each field through `object.__setattr__`, looked up by name
on every call: for a value type built once per card played (the match state,
domain/record/match.py) that is about a microsecond a play (docs/benchmarks.md, issue 12).
`builder` compiles, once at import, a function that takes every field positionally and sets each
slot through its own descriptor; what it builds is the instance the class builds from the same
values (tests/domain/test_building.py).

Only for the classes where that holds: a frozen dataclass with slots, every field set by
`__init__` (no `init=False`, no InitVar), no `__post_init__` (or one that only checks, for values
known to pass it: `checked`).

    _build = builder(MatchState)     # _build(*fields) == MatchState(*fields)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")


def builder(cls: type[T], checked: bool = False) -> Callable[..., T]:
    """The function building `cls` from all its fields, in their order, positionally.

    `checked`: the class has a `__post_init__` that only checks the values (it sets nothing),
    and the caller builds only values that pass it (one instance built by the class first, and
    the others differing from it only in fields the checks do not read): it is not run."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass with slots")
    if hasattr(cls, "__post_init__") and not checked:
        raise TypeError(f"{cls.__name__} has a __post_init__, which the builder would skip")
    fields = dataclasses.fields(cls)   # type: ignore[arg-type]
    names = [f.name for f in fields]
    if any(not f.init for f in fields) or len(names) != cls.__init__.__code__.co_argcount - 1:
        raise TypeError(f"{cls.__name__}: every field must be set by __init__")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    for index, name in enumerate(names):
        namespace[f"_set{index}"] = cls.__dict__[name].__set__
    sets = "".join(f"    _set{index}(made, {name})\n" for index, name in enumerate(names))
    source = f"def build({', '.join(names)}):\n    made = _new(_cls)\n{sets}    return made\n"
    exec(compile(source, f"<builder of {cls.__name__}>", "exec"), namespace)
    built: Callable[..., T] = namespace["build"]
    built.__qualname__ = built.__name__ = f"build_{cls.__name__}"
    return built


def changer(cls: type[T]) -> Callable[..., T]:
    """`changed(instance, **changes)`: `dataclasses.replace(instance, **changes)` for `cls` (a
    class `builder` takes), without `replace`'s look at the fields on every call."""
    build = builder(cls)
    names = [f.name for f in dataclasses.fields(cls)]   # type: ignore[arg-type]
    values = attrgetter(*names)
    index = {name: at for at, name in enumerate(names)}

    def changed(instance: T, **changes: Any) -> T:
        fields = list(values(instance))
        for name, value in changes.items():
            fields[index[name]] = value
        return build(*fields)

    changed.__qualname__ = changed.__name__ = f"changed_{cls.__name__}"
    return changed
