"""builder: what it builds is what the class builds from the same values, for the classes the hot
paths build with it, and it refuses the classes where that would not hold."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.building import builder, changer
from domain.cards import DECK
from domain.events import CardPlayed
from domain.record.decide_transcribed import Decided
from domain.record.envelope import importer, importer_line

cards = st.sampled_from(DECK)
captures = st.lists(cards, max_size=4).map(tuple)
plays = st.builds(CardPlayed, seat=st.integers(0, 3), card=cards, capture=captures)
VALUES: dict[type[Any], st.SearchStrategy[tuple[Any, ...]]] = {
    Decided: st.tuples(st.lists(plays, max_size=3).map(tuple),
                       st.lists(st.text(max_size=5), max_size=2).map(tuple)),
}
# Events, commands, the match state, and the reader's WrittenPlay and Pos, are msgspec Structs
# (built in C, changed by msgspec.structs.replace): not built here.


def exact(value: object) -> tuple[object, ...]:
    """Every field, those left out of == included (a position), and the type."""
    if isinstance(value, msgspec.Struct):   # an envelope (domain/record/envelope.py)
        return (type(value), *(getattr(value, name) for name in value.__struct_fields__))
    return (type(value), *(getattr(value, f.name) for f in dataclasses.fields(value)))  # type: ignore[arg-type]


@given(st.sampled_from(sorted(VALUES, key=lambda c: c.__name__)).flatmap(
    lambda cls: st.tuples(st.just(cls), VALUES[cls])))
def test_what_the_builder_builds_is_what_the_class_builds(
        case: tuple[type[Any], tuple[Any, ...]]) -> None:
    cls, values = case
    built, called = builder(cls)(*values), cls(*values)
    assert exact(built) == exact(called)
    assert built == called and hash(built) == hash(called) and repr(built) == repr(called)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.__setattr__(dataclasses.fields(cls)[0].name, values[0])


@dataclasses.dataclass(frozen=True)
class NoSlots:
    value: int


@dataclasses.dataclass(slots=True)
class NotFrozen:
    value: int


@dataclasses.dataclass(frozen=True, slots=True)
class Checked:
    value: int

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError(self.value)


@dataclasses.dataclass(frozen=True, slots=True)
class Derived:
    value: int
    twice: int = dataclasses.field(init=False, default=0)


@pytest.mark.parametrize("cls", [NoSlots, NotFrozen, Checked, Derived, tuple])
def test_a_class_it_could_not_build_exactly_is_refused(cls: type[Any]) -> None:
    with pytest.raises(TypeError):
        builder(cls)


def test_a_checking_post_init_is_skipped_only_when_asked() -> None:
    built = builder(Checked, checked=True)(3)
    assert built == Checked(3) and exact(built) == exact(Checked(3))


@given(st.text(min_size=1, max_size=20).filter(str.strip), st.text(max_size=20),
       st.integers(1, 10**6), st.integers(1, 10**6))
def test_an_importers_envelope_for_another_line_is_the_one_importer_makes(
        program: str, file: str, first: int, line: int) -> None:
    moved = importer_line(importer(program, file, first), file, line)
    assert exact(moved) == exact(importer(program, file, line))
    assert moved == importer(program, file, line)


@given(st.sampled_from(sorted(VALUES, key=lambda c: c.__name__)).flatmap(
    lambda cls: st.tuples(st.just(cls), VALUES[cls], VALUES[cls], st.data())))
def test_what_the_changer_changes_is_what_replace_gives(
        case: tuple[type[Any], tuple[Any, ...], tuple[Any, ...], st.DataObject]) -> None:
    cls, values, others, data = case
    names = [f.name for f in dataclasses.fields(cls)]
    changes = {name: value for name, value in zip(names, others, strict=True)
               if data.draw(st.booleans())}
    changed = changer(cls)(cls(*values), **changes)
    assert exact(changed) == exact(dataclasses.replace(cls(*values), **changes))
