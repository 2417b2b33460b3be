"""The package installs (issue 24, point 1): a wheel built from the checkout, installed in a fresh
virtual environment, has every module and every data file, and its `verbale` command works.

The wheel is built from a copy of the checkout (so no `build/` is left in the tree) with the
project venv's setuptools (`--no-build-isolation`: no network). The fresh venv borrows the project
venv's site-packages for the dependencies through a `.pth` line, which adds that directory to
`sys.path` without reading the `.pth` files inside it: the editable install of the checkout
stays invisible, and every command runs from a directory outside the checkout. So a module or a
data file the wheel leaves out fails here as it would for `pip install .`; `fairness`, `keygen`,
`checkpoint` and `verify --against`, which a wheel without projections.fairness and
projections.audit_log broke, run from it.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("domain", "projections", "importers", "replay_web")
NOT_SHIPPED = {".py", ".pyc", ".po", ".pot"}
"""Sources and the translators' catalogues; every other file of a package is read at run time."""

pytestmark = pytest.mark.slow


def _run(command: list[str | Path], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run([str(part) for part in command], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _build(work: Path, env: dict[str, str]) -> Path:
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, source / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
          "--wheel-dir", work / "dist", source], work, env)
    (wheel,) = (work / "dist").glob("verbale-*.whl")
    return wheel


def _fresh_venv(work: Path, env: dict[str, str]) -> Path:
    _run([sys.executable, "-m", "venv", "--without-pip", work / "venv"], work, env)
    python = work / "venv" / "bin" / "python"
    target = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                  work, env).strip()
    (Path(target) / "project_dependencies.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    return python


def _shipped_files(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return {name for name in archive.namelist() if name.split("/")[0] in PACKAGES}


def _tracked() -> set[str]:
    """The packages' files in the checkout (git's, so no cache or stray file counts)."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--", *PACKAGES],
                            capture_output=True, text=True, check=True).stdout.split()
    return {name for name in listed if (ROOT / name).is_file()}


def _modules(names: set[str]) -> list[str]:
    """The modules among the files `names`; a package's `__main__` is run, not imported."""
    modules = []
    for name in sorted(names):
        if name.endswith(".py") and not name.endswith("/__main__.py"):
            parts = name[:-3].split("/")
            modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


def test_the_wheel_installs_and_runs(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items()
           if key not in {"PYTHONPATH", "VERBALE_DATABASE_URL", "VIRTUAL_ENV"}}
    wheel = _build(tmp_path, env)
    shipped, tracked = _shipped_files(wheel), _tracked()
    data = {name for name in tracked if Path(name).suffix not in NOT_SHIPPED}
    assert not data - shipped, f"files read at run time, left out of the wheel: {data - shipped}"
    left_out = set(_modules(tracked)) - set(_modules(shipped))
    assert not left_out, f"modules left out of the wheel: {sorted(left_out)}"

    python = _fresh_venv(tmp_path, env)
    _run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-installed",
          "--no-index", wheel], tmp_path, env)
    venv = tmp_path / "venv"
    imports = "\n".join(f"import {module}" for module in _modules(shipped))
    where = _run([python, "-P", "-c", f"{imports}\nimport domain; print(domain.__file__)"],
                 tmp_path, env)
    assert Path(where.strip()).is_relative_to(venv), where

    verbale = venv / "bin" / "verbale"
    assert "simulate" in _run([verbale, "--help"], tmp_path, env)
    database = f"sqlite:///{tmp_path / 'store.db'}"
    _run([verbale, "simulate", "matches", "--count", "2", "--store", "--database", database],
         tmp_path, env)
    assert "Fairness" in _run([verbale, "fairness", "--database", database], tmp_path, env)
    _run([verbale, "keygen", tmp_path / "audit.key"], tmp_path, env)
    _run([verbale, "checkpoint", "--key", tmp_path / "audit.key", "-o", tmp_path / "cp.txt",
          "--database", database], tmp_path, env)
    _run([verbale, "verify", "--database", database, "--against", tmp_path / "cp.txt",
          "--public-key", tmp_path / "audit.key.pub"], tmp_path, env)

