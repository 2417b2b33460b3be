"""`verbale export`: an auditor with only the JSON lines and the two documents re-checks a match."""

from __future__ import annotations

import json

import pytest

from domain.demo.matches import demo_set
from domain.record.catalog import CATALOG
from domain.shuffle import Seed
from projections.auditor.audit import audit_lines
from projections.store.app import MatchStore
from projections.store.export import ExportError, export_jsonl
from tests.projections.conftest import Backend
from tests.projections.store.test_replay import record

DEMOS = demo_set(Seed(b"\x77" * 16))
STANDARD_DEALS = [d for d in DEMOS if d.setup.ruleset.get("deal_order", "uno-alla-volta")
                  == "uno-alla-volta" and d.setup.ruleset.get("direction",
                                                              "counterclockwise")
                  == "counterclockwise"]


@pytest.fixture
def real_store(backend: Backend) -> MatchStore:
    app = MatchStore(url=backend.url, catalog=CATALOG)
    yield app  # type: ignore[misc]
    app.close()


@pytest.mark.parametrize("which", [0, 5, 12, 25, 30])
def test_an_outside_auditor_rechecks_chain_seeds_and_deals_from_the_export(
        real_store: MatchStore, which: int) -> None:
    demo = STANDARD_DEALS[which]
    loaded = record(real_store, demo, None)
    lines = list(export_jsonl(real_store, loaded.stream))
    assert len(lines) == loaded.version
    report = audit_lines(lines)
    assert report.ok and report.check("deals").status == "OK", "\n".join(report.render())
    assert all(report.check(name).status == "OK" for name in ("chain", "seeds", "deals"))
    assert json.loads(lines[-1])["hash"] == loaded.head


def test_the_outside_auditor_sees_a_forged_deal(real_store: MatchStore) -> None:
    loaded = record(real_store, STANDARD_DEALS[0], None)
    lines = list(export_jsonl(real_store, loaded.stream))
    at = next(i for i, line in enumerate(lines) if '"type":"SmazzataDealt"' in line)
    record_ = json.loads(lines[at])
    hands = record_["data"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    lines[at] = json.dumps(record_)
    report = audit_lines(lines)
    assert [c.name for c in report.checks if not c.ok] == ["chain", "deals"]
    assert report.check("deals").problems[0].startswith(f"line {at + 1}: smazzata 0 attempt 0: "
                                                        "hands do not follow")


def test_exporting_an_unknown_match_says_so(real_store: MatchStore) -> None:
    import uuid
    with pytest.raises(ExportError, match="no such match"):
        list(export_jsonl(real_store, uuid.uuid4()))
