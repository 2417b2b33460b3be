"""docs/verify_checkpoint.py is the package's checkpoint checker in one file: made by
projections/auditor/standalone.py from checkpoint.py, ed25519.py and merkle.py, byte for byte;
copied alone into an empty folder it runs with the standard library only (`python -I -S`), and
`python -m projections.auditor` says the same."""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from projections.audit_log.checkpoint import checkpoint_of, raw_public, sign
from projections.auditor import standalone

ROOT = Path(__file__).parents[3]
AT = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def test_the_script_is_made_from_the_package() -> None:
    """Edit projections/auditor/, then `python -m projections.auditor.standalone`."""
    assert standalone.SCRIPT == ROOT / "docs" / "verify_checkpoint.py"
    assert standalone.SCRIPT.read_text(encoding="utf-8") == standalone.script()


def test_the_script_holds_every_part_and_imports_none_of_them() -> None:
    text = standalone.script()
    for part in (*standalone.PARTS, standalone.MAIN):
        assert f"# ---- projections/auditor/{part} ----" in text
    assert "from ." not in text and "import projections" not in text
    assert text.startswith('#!/usr/bin/env python3\n"""Check a verbale audit-log checkpoint')


def test_main_writes_the_script(tmp_path: Path) -> None:
    target = tmp_path / "v.py"
    assert standalone.main([str(target)]) == 0
    assert target.read_text(encoding="utf-8") == standalone.script()


def _signed(where: Path, size: int) -> list[str]:
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    (where / "k.pub").write_text(raw_public(key.public_key()).hex(), encoding="utf-8")
    (where / "cp.txt").write_text(sign(checkpoint_of(size, bytes(32), AT), key).text(),
                                  encoding="utf-8")
    return ["--key", str(where / "k.pub"), "--checkpoint", str(where / "cp.txt")]


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=60,
                          check=False)


def test_the_script_copied_alone_runs_with_the_standard_library_only(tmp_path: Path) -> None:
    alone = tmp_path / "auditor"
    alone.mkdir()
    script = Path(shutil.copy(standalone.SCRIPT, alone / "verify_checkpoint.py"))
    args = _signed(tmp_path, 7)
    ran = _run([sys.executable, "-I", "-S", str(script), *args], alone)
    assert (ran.returncode, ran.stderr) == (0, "")
    assert ran.stdout.startswith("OK checkpoint of verbale audit log: 7 leaves at ")
    module = _run([sys.executable, "-m", "projections.auditor", *args], ROOT)
    assert (module.returncode, module.stdout) == (0, ran.stdout)
    forged = (tmp_path / "cp.txt").read_text(encoding="utf-8").replace("\n7\n", "\n8\n")
    (tmp_path / "cp.txt").write_text(forged, encoding="utf-8")
    ran = _run([sys.executable, "-I", "-S", str(script), *args], alone)
    assert ran.returncode == 1 and "the signature does not match" in ran.stdout, ran.stdout
