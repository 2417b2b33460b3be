"""Copies of a NamedTuple state with some fields changed, by name, at the cost of a tuple literal.

The rules engines build one state per card played, so building one must cost little
(docs/benchmarks.md). The named ways Python offers cost too much there: `state._replace(...)`
goes through a dictionary and `_make`, and calling the class with more than 15 keyword arguments
compiles to a call with a dictionary (each about 1.1-1.4 µs for a Cirulla state on the project
machine, against 0.3 µs for a literal). A positional literal is fast but keeps the order of the
fields by hand, in every place that builds a state.

`replacer` compiles, once at import, a function from a typed signature: its keyword-only
parameters are the fields that change, `constants` are fields set to a fixed value, and every
other field is carried over from the state passed first. Call sites name each field they change
and mypy checks them against the signature; the positions are computed here from `_fields`,
never written by hand. A run of carried fields is copied as one slice of the old state, so a
state ordered with its steadiest fields first copies them in one step.

    @replacer(CirullaState, dealt=True)
    def _with_table(state: CirullaState, *, table: tuple[Card, ...]) -> CirullaState:
        raise NotImplementedError   # never runs: replaced by the compiled function
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_VARIADIC = 0x04 | 0x08   # CO_VARARGS | CO_VARKEYWORDS


def replacer(cls: type[tuple[object, ...]],
             **constants: object) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """The decorator compiling a signature `(state, *, field, ...)` for NamedTuple `cls`."""
    fields: tuple[str, ...] = getattr(cls, "_fields", ())
    if not fields:
        raise TypeError(f"{cls.__name__} is not a NamedTuple")
    if set(constants) - set(fields):
        raise TypeError(f"constants not fields of {cls.__name__}: "
                        f"{sorted(set(constants) - set(fields))}")

    def compiled(signature: Callable[P, T]) -> Callable[P, T]:
        code = signature.__code__
        name = signature.__name__
        if code.co_argcount != 1 or code.co_posonlyargcount or code.co_flags & _VARIADIC:
            raise TypeError(f"{name}: the signature is (state, *, field, ...), no *args/**kwargs")
        state = code.co_varnames[0]
        changed = code.co_varnames[1:1 + code.co_kwonlyargcount]
        unknown = sorted({*changed, *constants} - set(fields))
        both = sorted(set(changed) & set(constants))
        if unknown or both or state in fields:
            raise TypeError(f"{name}: not fields of {cls.__name__}: {unknown}; both changed and "
                            f"constant: {both}; state parameter named like a field: "
                            f"{state in fields}")
        keywords = f", *, {', '.join(changed)}" if changed else ""
        source = (f"def {name}({state}{keywords}):\n"
                  + _body(fields, state, changed, constants))
        namespace: dict[str, object] = {
            "_new": tuple.__new__, "_cls": cls,
            **{f"_constant_{field}": value for field, value in constants.items()}}
        exec(compile(source, f"<replacer of {cls.__name__}: {name}>", "exec"), namespace)
        built: Callable[P, T] = namespace[name]  # type: ignore[assignment]
        for attribute in ("__module__", "__qualname__", "__doc__", "__annotations__"):
            setattr(built, attribute, getattr(signature, attribute))
        return built

    return compiled


def _body(fields: tuple[str, ...], state: str, changed: tuple[str, ...],
          constants: Mapping[str, object]) -> str:
    """The source of the function's body: the new state's fields in `fields` order.

    Each field of a tuple subclass read by index costs about what building the new state
    costs per field (the specialised bytecodes take exact tuples only), so runs of at least
    three carried fields are copied as slices and the parts concatenated. With more than one
    such run a list copy of the old state with the new fields set costs less.
    """
    def value(field: str) -> str:
        return field if field in changed else f"_constant_{field}"

    parts: list[str] = []
    literal: list[str] = []
    slices = 0
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
            slices += 1
            index = end
        else:
            field = fields[index]
            carried = field not in changed and field not in constants
            literal.append(f"{state}[{index}]" if carried else value(field))
            index += 1
    if literal:
        parts.append(f"({', '.join(literal)},)")
    if slices <= 1:
        return f"    return _new(_cls, {' + '.join(parts)})\n"
    sets = "".join(f"    _fields[{i}] = {value(f)}\n" for i, f in enumerate(fields)
                   if f in changed or f in constants)
    return f"    _fields = list({state})\n{sets}    return _new(_cls, _fields)\n"
