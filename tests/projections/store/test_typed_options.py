"""MatchCreated v3: the options of `ruleset` and `match_format` stored as JSON numbers and
booleans of their declared type, while the domain keeps the texts its parsers read; records of
v1 and v2 (options as strings) still read and verify."""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from domain.briscola.state import BriscolaRules
from domain.cirulla.ruleset import TAVERNA, Ruleset
from domain.demo.matches import DemoMatch, demo_set
from domain.match_format import MatchFormat
from domain.record.catalog import CATALOG, format_options
from domain.record.events import MatchCreated
from domain.shuffle import Seed
from projections.auditor.audit import audit_lines
from projections.store import facts
from projections.store.app import MatchStore
from projections.store.codec import CodecError, encode
from projections.store.export import export_jsonl
from projections.store.facts import OPTION_TYPES
from projections.verify.streams import verify_store
from tests.projections.conftest import Backend
from tests.projections.store.test_replay import record

DEMOS = demo_set(Seed(b"\x31" * 16))
CIRULLA = next(d for d in DEMOS if d.setup.game == "cirulla")
BRISCOLA = next(d for d in DEMOS if d.setup.game == "briscola")


def _json_type(hint: Any) -> type:
    return hint if hint in (int, bool) else str


def test_the_declared_types_are_the_domain_s_field_types() -> None:
    """The stored schema lists its option types itself (a domain change does not silently
    change the stored layout); they must agree with the domain's fields."""
    fmt = MatchFormat.parse("21pt", "cirulla")
    format_hints = typing.get_type_hints(MatchFormat)
    wanted_format = {k: _json_type(format_hints[k]) for k in format_options(fmt)}
    cirulla_hints = typing.get_type_hints(Ruleset)
    wanted_cirulla = {f.name: _json_type(cirulla_hints[f.name])
                      for f in dataclasses.fields(Ruleset)}
    briscola_hints = typing.get_type_hints(BriscolaRules)
    wanted_briscola = {k: _json_type(briscola_hints[k])
                       for k in CATALOG["briscola"].options(BriscolaRules())}
    wanted = {"cirulla": {"match_format": wanted_format, "ruleset": wanted_cirulla},
              "briscola": {"match_format": wanted_format, "ruleset": wanted_briscola}}
    assert wanted == OPTION_TYPES
    assert set(CATALOG) == set(OPTION_TYPES)


@pytest.fixture
def real_store(backend: Backend) -> Iterator[MatchStore]:
    app = MatchStore(url=backend.url, catalog=CATALOG)
    yield app
    app.close()


def _created(store: MatchStore, demo: DemoMatch) -> tuple[dict[str, Any], list[str]]:
    loaded = record(store, demo, None)
    lines = list(export_jsonl(store, loaded.stream))
    return json.loads(lines[0]), lines


@pytest.mark.parametrize("demo", [CIRULLA, BRISCOLA], ids=["cirulla", "briscola"])
def test_a_new_match_stores_its_options_typed_and_reads_them_back(
        real_store: MatchStore, demo: DemoMatch) -> None:
    created, lines = _created(real_store, demo)
    assert created["class_version"] == 3
    fmt = created["data"]["match_format"]
    assert type(fmt["length"]) is int and type(fmt["ko"]) is bool
    assert all(type(v) is bool for k, v in fmt.items() if k not in ("kind", "length"))
    ruleset = created["data"]["ruleset"]
    if demo.setup.game == "briscola":
        assert type(ruleset["vinco_subito"]) is bool
    else:
        assert type(ruleset["piccola_fino_al"]) is int
        assert type(ruleset["decino_tre_assi"]) is int
    event = real_store.facts(_stream(created))[0].to_domain()
    assert event.match_format == demo.setup.match_format
    assert event.ruleset == demo.setup.ruleset
    assert audit_lines(lines).ok
    verdicts = verify_store(real_store)
    assert all(v.ok for v in verdicts), verdicts


def _stream(created: dict[str, Any]) -> UUID:
    return UUID(created["stream"])


def test_a_match_created_by_older_code_as_v2_still_verifies_and_exports(
        real_store: MatchStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """As the code before class_version 3 wrote it: options as strings. Its bytes stay as
    written; it reads, verifies and exports as before, next to a match recorded today."""
    monkeypatch.setattr(facts.MatchCreated, "class_version", 2)
    monkeypatch.setattr(facts.MatchCreated, "data_of", classmethod(lambda cls, e: encode(e)))
    monkeypatch.setattr(facts.MatchCreated, "domain_data", lambda self: self.data)
    old, old_lines = _created(real_store, CIRULLA)
    monkeypatch.undo()
    new, new_lines = _created(real_store, BRISCOLA)
    assert old["class_version"] == 2 and old["data"]["match_format"]["length"] == str(
        old["data"]["match_format"]["length"])
    assert '"ko":"false"' in old_lines[0] and '"ko":false' in new_lines[0]
    assert new["class_version"] == 3
    verdicts = verify_store(real_store)
    assert len(verdicts) == 2 and all(v.ok for v in verdicts), verdicts
    assert audit_lines(old_lines).ok and audit_lines(new_lines).ok
    read = real_store.facts(_stream(old))[0]
    assert read.data["match_format"]["ko"] is False   # upcast to v3 when read
    assert read.to_domain().match_format == CIRULLA.setup.match_format


def _fact(data: dict[str, Any]) -> facts.MatchCreated:
    return facts.MatchCreated(type="MatchCreated", version=1, data=data)


def test_a_v3_record_with_an_option_of_the_wrong_type_is_refused() -> None:
    data = facts.MatchCreated.data_of(_event(CIRULLA))
    assert _fact(data).to_domain() == _event(CIRULLA)
    bad = {**data, "match_format": {**data["match_format"], "length": "21"}}
    with pytest.raises(CodecError, match=r"match_format\.length: expected an integer, got '21'"):
        _fact(bad).to_domain()
    bad = {**data, "ruleset": {**data["ruleset"], "redeal": True}}
    with pytest.raises(CodecError, match=r"ruleset\.redeal: expected a string, got True"):
        _fact(bad).to_domain()


def test_the_upcaster_types_only_exact_texts() -> None:
    """A v2 text that is not exactly an integer or a boolean stays a string: decoding then
    names it, and nothing of the stored value is lost."""
    state: dict[str, Any] = {"data": {
        "game": "cirulla", "ruleset": {**TAVERNA.options(), "piccola_fino_al": "07"},
        "match_format": {"kind": "target", "length": "-0", "ko": "yes", "vp": "true"}}}
    facts.MatchCreated.upcast_v2_v3(state)
    assert state["data"]["ruleset"]["piccola_fino_al"] == "07"
    assert state["data"]["ruleset"]["decino_tre_assi"] == 11
    assert state["data"]["match_format"] == {"kind": "target", "length": "-0", "ko": "yes",
                                             "vp": True}
    other = {"data": {"game": "toy", "ruleset": {"n": "3"}, "match_format": {"target": "5"}}}
    facts.MatchCreated.upcast_v2_v3(other)
    assert other["data"]["match_format"] == {"target": "5"}   # not a game of OPTION_TYPES


def _event(demo: DemoMatch) -> MatchCreated:
    setup = demo.setup
    return MatchCreated(game=setup.game, ruleset=setup.ruleset, players=setup.players,
                        sides=tuple(s % 2 for s in range(len(setup.players))),
                        match_format=setup.match_format, time_control=setup.time_control,
                        first_dealer=setup.first_dealer)
