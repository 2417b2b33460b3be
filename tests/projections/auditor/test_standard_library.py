"""The outside auditor knows only the documents: every module of projections/auditor/ imports
the standard library and its own package, nothing else (the import-linter contract says the same
of verbale's packages; this test also catches a third-party library the contract does not list).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import projections.auditor

PACKAGE = Path(projections.auditor.__file__).parent
MODULES = sorted(PACKAGE.glob("*.py"))


def imports_of(path: Path) -> set[str]:
    """The top-level names of the absolute imports of a module (relative ones are its package)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add((node.module or "").split(".")[0])
    return found


def test_the_package_has_its_modules() -> None:
    names = {path.stem for path in MODULES}
    assert {"audit", "checkpoint", "ed25519", "merkle", "sessions", "standalone"} <= names


@pytest.mark.parametrize("path", MODULES, ids=[path.name for path in MODULES])
def test_each_module_imports_only_the_standard_library(path: Path) -> None:
    imported = imports_of(path)
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported


def test_the_check_sees_a_verbale_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import json\nfrom .report import N_\nfrom domain.cards import Card\n",
                      encoding="utf-8")
    assert imports_of(module) == {"json", "domain"}
