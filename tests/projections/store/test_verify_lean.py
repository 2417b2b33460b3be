"""verify's lean path (issue 13, projections/store/verify_lean.py): its decoders take exactly
what the codec takes and build the same events, and on a sound store it is the path that
confirms the streams (the verdicts are compared with the exact path's in test_verify_fast.py)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain import events as play
from domain.cards import DECK, UNKNOWN
from projections.store.app import MatchStore
from projections.store.codec import CodecError, decode
from projections.store.verify import verify_store
from projections.store.verify_fast import exact
from projections.store.verify_lean import _fast_decoder, _Unfit, confirmed_events
from projections.store.verify_rows import stream_rows
from tests.projections.conftest import Backend
from tests.projections.store.test_tamper import GAMES, build

_CODES = [c.code for c in (*DECK, UNKNOWN)]
_JUNK = st.none() | st.booleans() | st.integers(-3, 50) | st.text(max_size=3) \
    | st.sampled_from(["7d", "??", "10d", "7D"]) | st.lists(st.integers(0, 3), max_size=2) \
    | st.dictionaries(st.text(max_size=2), st.integers(), max_size=1)
_code = st.sampled_from(_CODES) | _JUNK
_codes = st.lists(_code, max_size=4) | _JUNK
_int = st.integers(-2, 60) | _JUNK
_FIELDS: dict[type[Any], dict[str, Any]] = {
    play.CardPlayed: {"seat": _int, "card": _code, "capture": _codes,
                      "matta_value": st.none() | _int, "scopa": st.booleans() | _JUNK},
    play.HandDealt: {"hands": st.lists(_codes, max_size=4) | _JUNK},
    play.TrickTaken: {"seat": _int, "cards": _codes, "points": _int},
    play.CardsDrawn: {"draws": st.lists(st.tuples(_int, _code).map(list) | _JUNK, max_size=4)
                      | _JUNK},
    play.AccusoDeclared: {"seat": _int, "kind": st.text(max_size=6) | _JUNK, "cards": _codes,
                          "points": _int, "matta_value": st.none() | _int},
}


@st.composite
def stored_data(draw: st.DrawFn, cls: type[Any]) -> Any:
    """The `data` of a record of `cls`: mostly the right fields, each of any value; sometimes a
    field missing or one too many, or not an object at all."""
    data = draw(st.fixed_dictionaries(_FIELDS[cls]))
    shape = draw(st.integers(0, 9))
    if shape == 0 and data:
        data.pop(draw(st.sampled_from(sorted(data))))
    elif shape == 1:
        data[draw(st.text(max_size=4))] = draw(_JUNK)
    elif shape == 2:
        return draw(_JUNK)
    return data


@pytest.mark.parametrize("cls", list(_FIELDS), ids=lambda c: c.__name__)
@given(data=st.data())
def test_a_lean_decoder_takes_what_the_codec_takes(cls: type[Any], data: st.DataObject) -> None:
    stored = data.draw(stored_data(cls))
    lean = _fast_decoder(cast(Hashable, cls))
    assert lean is not None
    try:
        expected = decode(cls, stored)
    except CodecError:
        with pytest.raises(_Unfit):
            lean(stored)
        return
    decoded = lean(stored)
    assert decoded == expected and type(decoded) is type(expected)
    assert all(a is b for a, b in zip(_cards_of(decoded), _cards_of(expected), strict=True))


def _cards_of(event: Any) -> list[Any]:
    """Every card of an event, in order: the rules compare cards by identity."""
    found: list[Any] = []
    for value in (getattr(event, name) for name in event.__slots__):
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            found.extend(item if isinstance(item, tuple) else (item,))
    return [c for c in found if type(c).__name__ == "Card"]


def test_the_lean_path_confirms_every_sound_stream(backend: Backend) -> None:
    """test_tamper's store, all sound: every stream's rows, read as the store reads them,
    decode on the lean path, and the lean verdicts are the exact path's."""
    store = MatchStore(url=backend.url, catalog=GAMES)
    try:
        build(store)
        heads = {h[0]: h for h in store.heads()}
        assert heads
        for stream, head in heads.items():
            rows = stream_rows(store, stream)
            assert [(r.originator_version, r.topic, r.state) for r in store.stored(stream)] \
                == [(r.originator_version, r.topic, r.state) for r in rows]
            assert confirmed_events(store, stream, rows, head) is not None
        lean = verify_store(store)
        with exact():
            assert lean == verify_store(store)
    finally:
        store.close()
