"""domain/replacing.py: the compiled builders give what `_replace` gives, for any set of fields."""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

import pytest

from domain.replacing import replacer


class Seven(NamedTuple):
    a: int
    b: int
    c: int
    d: int
    e: int
    f: int
    g: int = 0


OLD = Seven(1, 2, 3, 4, 5, 6, 7)


def _built(roles: tuple[str, ...]) -> Seven:
    """A builder where field i is carried ('k'), changed ('c') or a constant ('x')."""
    fields = Seven._fields
    changed = [f for f, r in zip(fields, roles, strict=True) if r == "c"]
    constants = {f: -i for i, (f, r) in enumerate(zip(fields, roles, strict=True)) if r == "x"}
    namespace: dict[str, object] = {}
    exec(f"def build(state, *, {', '.join(changed)}): raise NotImplementedError"
         if changed else "def build(state): raise NotImplementedError", namespace)
    build = replacer(Seven, **constants)(namespace["build"])  # type: ignore[arg-type]
    return build(OLD, **{f: 100 + i for i, f in enumerate(fields) if f in changed})


def test_every_mix_of_carried_changed_and_constant_fields_is_built_by_name() -> None:
    # 3**7 builders: every way slices, single carried fields and list copies are chosen.
    fields = Seven._fields
    for roles in product("kcx", repeat=len(fields)):
        expected = OLD._replace(**{f: 100 + i if r == "c" else -i
                                   for i, (f, r) in enumerate(zip(fields, roles, strict=True))
                                   if r != "k"})
        built = _built(roles)
        assert built == expected, roles
        assert type(built) is Seven


def test_the_signature_and_its_documentation_are_kept() -> None:
    @replacer(Seven, g=9)
    def moved(state: Seven, *, b: int, f: int) -> Seven:
        """Doc."""
        raise NotImplementedError

    assert moved(OLD, b=20, f=60) == Seven(1, 20, 3, 4, 5, 60, 9)
    assert moved.__doc__ == "Doc." and moved.__name__ == "moved"
    with pytest.raises(TypeError):
        moved(OLD, 20, 60)  # type: ignore[misc]
    with pytest.raises(TypeError):
        moved(OLD, b=1)  # type: ignore[call-arg]


def test_a_name_that_is_not_a_field_is_refused_at_import() -> None:
    with pytest.raises(TypeError, match="not fields"):
        @replacer(Seven)
        def typo(state: Seven, *, hands: int) -> Seven:
            raise NotImplementedError
    with pytest.raises(TypeError, match="constants not fields"):
        replacer(Seven, z=1)
    with pytest.raises(TypeError, match="both changed and constant"):
        @replacer(Seven, a=1)
        def twice(state: Seven, *, a: int) -> Seven:
            raise NotImplementedError
    with pytest.raises(TypeError, match="no \\*args"):
        @replacer(Seven)
        def loose(state: Seven, *rest: int) -> Seven:
            raise NotImplementedError
    with pytest.raises(TypeError, match="not a NamedTuple"):
        replacer(tuple)
