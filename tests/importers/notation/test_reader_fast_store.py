"""The reader's fast route (reader_fast.py) over real records, not generated ones: every example
of docs/examples and every match of a demo store (`verbale simulate matches --store`, with the
examples imported beside them) as `verbale export --format notation` writes it. The fast route
reads each of them, and gives lark's result exactly; `read` gives the same matches with
VERBALE_EXACT=1 as without. `verbale import --exact` and `verbale verify --exact` turn the fast
route off through the environment (so that --jobs workers see it too)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from importers.notation import reader
from importers.notation.exact import VARIABLE
from importers.notation.exact import exact as is_exact
from replay_web.cli import _register, cli
from tests.importers.notation.test_reader_fast import EXAMPLES, assert_as_lark, exact, switch


def run(*args: str | Path) -> Result:
    _register()
    return CliRunner().invoke(cli, ["--lang", "en", *map(str, args)])


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A SQLite demo store: the demo set of matches and the examples of docs/examples."""
    url = f"sqlite:///{tmp_path_factory.mktemp('demo') / 'verbale.db'}"
    simulated = run("simulate", "matches", "--store", "--database", url)
    assert simulated.exit_code == 0, simulated.output
    accepted = [p for p in EXAMPLES if "rifiutati" not in p.parts]
    imported = run("import", *accepted, "--database", url)
    assert imported.exit_code == 0, imported.output
    return url


@pytest.fixture(scope="module")
def exports(demo_url: str) -> dict[str, str]:
    """Each stored match's record as `verbale export --format notation` writes it, by id."""
    from domain.record.catalog import CATALOG
    from projections.store.app import MatchStore
    store = MatchStore(url=demo_url, catalog=CATALOG)
    try:
        streams = store.streams()
    finally:
        store.close()
    texts = {}
    for stream in streams:
        result = run("export", "--match", str(stream), "--format", "notation",
                     "--database", demo_url)
        if result.exit_code == 2 and "is a tournament" in result.stderr:
            continue
        assert result.exit_code == 0, result.output
        texts[str(stream)] = result.stdout
    return texts


def test_the_demo_store_has_simulated_and_imported_matches(exports: dict[str, str]) -> None:
    assert len(exports) >= 35
    assert any("Seed " in text for text in exports.values())
    assert any('"briscola"' in text for text in exports.values())
    assert any('"cirulla"' in text for text in exports.values())


def test_every_stored_match_is_read_by_the_fast_route_as_lark_reads_it(
        exports: dict[str, str]) -> None:
    not_taken = [stream for stream, text in exports.items() if not assert_as_lark(text)]
    assert not_taken == []


def test_every_stored_match_reads_the_same_with_verbale_exact(exports: dict[str, str]) -> None:
    for stream, text in exports.items():
        with switch(False):
            fast = reader.read(text, f"{stream}.txt")
        with switch(True):
            exact_route = reader.read(text, f"{stream}.txt")
        assert exact(fast.matches) == exact(exact_route.matches)
        assert len(fast.matches) == 1 and fast.errors == exact_route.errors == ()


def test_every_example_reads_the_same_with_verbale_exact() -> None:
    for path in EXAMPLES:
        with switch(False):
            fast = reader.read_bytes(path.read_bytes(), path.name, lenient=True)
        with switch(True):
            exact_route = reader.read_bytes(path.read_bytes(), path.name, lenient=True)
        assert exact(fast.matches) == exact(exact_route.matches)
        assert [(str(e), e.line, e.column) for e in fast.errors] == [
            (str(e), e.line, e.column) for e in exact_route.errors]


class Counting:
    """Stands for lark's parser: counts its calls and parses with it."""

    def __init__(self) -> None:
        self.calls = 0
        self.parser = reader._PARSER

    def parse(self, text: str) -> object:
        self.calls += 1
        return self.parser.parse(text)


@pytest.fixture
def restored() -> Iterator[None]:
    """VERBALE_EXACT as it was before the test, read again after it."""
    with switch(False), pytest.MonkeyPatch.context() as patch:
        patch.setenv(VARIABLE, "0")   # so that its value is put back after the command
        is_exact.cache_clear()
        yield
    is_exact.cache_clear()


@pytest.mark.usefixtures("restored")
@pytest.mark.parametrize("exact_option", [False, True])
def test_import_exact_reads_with_lark_only(exact_option: bool, tmp_path: Path) -> None:
    [example] = [p for p in EXAMPLES if p.name == "cirulla-2p-torneo.txt"]
    counting = Counting()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reader, "_PARSER", counting)
        result = run("import", "--dry-run", *(["--exact"] if exact_option else []), example,
                     "--database", f"sqlite:///{tmp_path / 'absent.db'}")
    assert result.exit_code == 0, result.output
    assert counting.calls == (1 if exact_option else 0)
    assert (os.environ[VARIABLE] == "1") is exact_option
    assert is_exact() is exact_option


@pytest.mark.usefixtures("restored")
def test_verify_exact_sets_the_switch_in_the_environment_of_its_workers(demo_url: str) -> None:
    result = run("verify", "--exact", "--jobs", "2", "--database", demo_url)
    assert result.exit_code == 0, result.output
    assert os.environ[VARIABLE] == "1" and is_exact()
