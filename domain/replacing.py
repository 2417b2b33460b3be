"""Copies of a NamedTuple state with some fields changed, by name, at the cost of a tuple literal.

The rules engines build one state per card played, so building one must cost little
(docs/benchmarks.md). The named ways Python offers cost too much there: `state._replace(...)`
goes through a dictionary and `_make` (about 1.4 µs for a Cirulla state here, against 0.3 µs for
a tuple literal), and calling the class with all 19 fields by keyword compiles to a call with a
dictionary (more than 15 keyword arguments). A positional literal is fast but keeps the order of
the fields by hand, in every place that builds a state.

`replacer` compiles, once at import, a function from a typed signature: its keyword-only
parameters are the fields that change, `constants` are fields set to a fixed value, and every
other field is carried over from the state passed first (read by its index in `_fields`, which
the generated code computes, not a person). Call sites name each field they change, and mypy
checks them against the signature; no index or field order is written by hand anywhere.

    @replacer(CirullaState, dealt=True)
    def _with_table(state: CirullaState, *, table: tuple[Card, ...]) -> CirullaState:
        raise NotImplementedError   # never runs: replaced by the compiled function
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


def replacer(cls: type[tuple[object, ...]],
             **constants: object) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """The decorator compiling a signature `(state, *, field=..., ...)` for NamedTuple `cls`."""
    fields: tuple[str, ...] = getattr(cls, "_fields", ())
    if not fields or not issubclass(cls, tuple):
        raise TypeError(f"{cls.__name__} is not a NamedTuple")

    def compiled(signature: Callable[P, T]) -> Callable[P, T]:
        code = signature.__code__
        name = signature.__name__
        if code.co_argcount != 1 or code.co_posonlyargcount or code.co_flags & 0x0C:
            raise TypeError(f"{name}: the signature is (state, *, field, ...), no *args/**kwargs")
        state = code.co_varnames[0]
        changed = code.co_varnames[1:1 + code.co_kwonlyargcount]
        unknown = sorted({*changed, *constants} - set(fields))
        both = sorted(set(changed) & set(constants))
        if unknown or both or state in fields:
            raise TypeError(f"{name}: not fields of {cls.__name__}: {unknown}; both changed and "
                            f"constant: {both}; the state parameter named like a field: "
                            f"{state in fields}")
        keywords = f", *, {', '.join(changed)}" if changed else ""
        source = (f"def {name}({state}{keywords}):\n"
                  f"    return _new(_cls, {_fields_expression(fields, state, changed, constants)})\n")
        namespace: dict[str, object] = {
            "_new": tuple.__new__, "_cls": cls,
            **{f"_constant_{field}": value for field, value in constants.items()}}
        exec(compile(source, f"<replacer of {cls.__name__}: {name}>", "exec"), namespace)
        built: Callable[P, T] = namespace[name]  # type: ignore[assignment]
        for attribute in ("__module__", "__qualname__", "__doc__", "__annotations__"):
            setattr(built, attribute, getattr(signature, attribute))
        return built

    return compiled


def _fields_expression(fields: tuple[str, ...], state: str, changed: tuple[str, ...],
                       constants: dict[str, object]) -> str:
    """The tuple of the new state's fields, in `fields` order, as Python source.

    A run of at least three carried fields is one slice of the old state (a C copy: reading a
    field of a tuple subclass one at a time costs as much as building it); the parts are
    concatenated.
    """
    parts: list[str] = []
    literal: list[str] = []
    index = 0
    while index < len(fields):
        end = index
        while end < len(fields) and fields[end] not in changed and fields[end] not in constants:
            end += 1
        if end - index >= 3:
            if literal:
                parts.append(f"({', '.join(literal)},)")
                literal = []
            parts.append(f"{state}[{index}:{end}]")
            index = end
            continue
        field = fields[index]
        if field in changed:
            literal.append(field)
        elif field in constants:
            literal.append(f"_constant_{field}")
        else:
            literal.append(f"{state}[{index}]")
        index += 1
    if literal:
        parts.append(f"({', '.join(literal)},)")
    return " + ".join(parts)
