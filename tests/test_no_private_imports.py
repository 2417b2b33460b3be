"""No private name crosses a module boundary (issue 24, 5): in every module of domain,
projections, importers and replay_web, no `from X import _name` and no `X._name` where X is a
module, for a name with one leading underscore (dunders are public; `_`, the gettext function by
its universal name, is too). A name another module needs is public: without its underscore, or
behind a public function. A module's own private names, and private attributes of objects, are
its own business."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGES = ("domain", "projections", "importers", "replay_web")


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_"


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_of(root: Path) -> dict[str, Path]:
    return {module_name(root, path): path for package in PACKAGES
            for path in sorted((root / package).rglob("*.py"))}


@dataclass(frozen=True)
class Crossing:
    """A private name of `owner` used by another module at `where` (file:line)."""

    where: str
    owner: str
    name: str

    def __str__(self) -> str:
        return f"{self.where}: {self.owner}.{self.name}"


def _source(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module a `from ... import` names (a relative one resolved from `module`)."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def crossings(module: str, path: Path, modules: dict[str, Path], root: Path) -> list[Crossing]:
    """Every private name of another module `module`'s source imports or reads."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = str(path.relative_to(root))
    found: list[Crossing] = []
    bound: dict[str, str] = {}   # a local name -> the module it is
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _source(module, path, node)
            for alias in node.names:
                if private(alias.name) and source != module:
                    found.append(Crossing(f"{where}:{node.lineno}", source, alias.name))
                if f"{source}.{alias.name}" in modules:
                    bound[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            owner = _module_read(node.value, bound)
            if owner is not None and owner != module:
                found.append(Crossing(f"{where}:{node.lineno}", owner, node.attr))
    return found


def _module_read(value: ast.expr, bound: dict[str, str]) -> str | None:
    """The module `value` names (`m`, `package.m`), when its root is a name an import bound."""
    chain: list[str] = []
    while isinstance(value, ast.Attribute):
        chain.append(value.attr)
        value = value.value
    if not isinstance(value, ast.Name) or value.id not in bound:
        return None
    return ".".join([bound[value.id], *reversed(chain)])


def all_crossings(root: Path) -> list[Crossing]:
    modules = modules_of(root)
    return [crossing for module, path in modules.items()
            for crossing in crossings(module, path, modules, root)]


def test_no_private_name_is_used_across_modules() -> None:
    found = all_crossings(ROOT)
    assert not found, "private names used across modules:\n" + "\n".join(map(str, found))


def _tree(tmp: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp


def test_every_way_of_reaching_a_private_name_is_found(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "domain/__init__.py": "",
        "domain/a.py": "_x = 1\ndef _f() -> None: ...\nclass C:\n    _y = 2\n",
        "domain/b.py": "from domain.a import _x, C\nfrom .a import _f\nprint(C._y)\n",
        "domain/c.py": "import domain.a\nimport domain.a as m\nfrom domain import a\n"
                       "print(domain.a._x, m._f, a._x, a.__name__)\n",
        "projections/__init__.py": "", "importers/__init__.py": "",
        "replay_web/__init__.py": "from replay_web.i18n import _\nfrom ..domain.a import __doc__\n",
        "replay_web/i18n.py": "def _(text: str) -> str: return text\n",
    })
    assert [str(c) for c in all_crossings(root)] == [
        "domain/b.py:1: domain.a._x", "domain/b.py:2: domain.a._f",
        "domain/c.py:4: domain.a._x", "domain/c.py:4: domain.a._f", "domain/c.py:4: domain.a._x"]


def test_a_module_s_own_private_names_are_its_own(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "domain/__init__.py": "", "projections/__init__.py": "", "importers/__init__.py": "",
        "replay_web/__init__.py": "",
        "domain/a.py": "import domain.a\n_x = 1\nprint(domain.a._x)\nclass C:\n    _y = 2\n"
                       "print(C()._y)\n",
    })
    assert all_crossings(root) == []
