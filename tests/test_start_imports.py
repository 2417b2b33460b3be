"""A command starts with what it needs (issue 24, point 6): `verbale --help`, every command's
`--help`, and the commands that do not compute statistics or print PDFs never import numpy, scipy
or WeasyPrint (the fairness battery and the printable pages import them when they run).

Each case runs in a fresh interpreter, which then lists the heavy libraries it has imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "scipy", "weasyprint")

_PREAMBLE = """
import glob, json, sys
from click.testing import CliRunner
from replay_web.cli import _LAZY, _register, cli

def run(*args):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, (args, result.output)
"""
_REPORT = "\nprint(json.dumps([name for name in {heavy!r} if name in sys.modules]))\n"

CASES = {
    "verbale --help": "run('--help')",
    "every command's --help": """
_register()
for group, commands in _LAZY.items():
    run(*group.split(), '--help')
    for name in commands:
        run(*group.split(), name, '--help')
""",
    "the store's and the audit log's commands, the importers": """
database = '--database=sqlite:///' + sys.argv[1]
run('simulate', 'matches', '--count', '2', '--store', database)
run('matches', database)
run('verify', database)
run('export', '--all', '-o', sys.argv[1] + '.export', database)
run('legal', 'cirulla', '--table', '4c 7b 2s', '--hand', '4d')
run('import', *glob.glob('docs/examples/*.txt'), *glob.glob('docs/examples/*.csv'), database)
run('tournament', 'import', 'docs/examples/tarocchi/torneo-12.txt', database)
run('project', database)
key, checkpoint = sys.argv[1] + '.key', sys.argv[1] + '.checkpoint'
run('keygen', key)
run('checkpoint', '--key', key, '-o', checkpoint, database)
run('verify', '--against', checkpoint, '--public-key', key + '.pub', database)
""",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_command_imports_no_statistics_and_no_pdf_library(case: str, tmp_path: Path) -> None:
    code = _PREAMBLE + CASES[case] + _REPORT.format(heavy=HEAVY)
    env = {key: value for key, value in os.environ.items() if key != "VERBALE_DATABASE_URL"}
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "store.db")], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    imported = json.loads(done.stdout.strip().splitlines()[-1])
    assert imported == [], f"{case} imported {imported}"


def test_the_check_sees_a_heavy_import() -> None:
    """The same check on the one command that needs scipy: it sees it (the test can fail)."""
    code = _PREAMBLE + "import replay_web.cli_fairness as c\nc.render\n" + \
        "from projections.fairness import report\n" + _REPORT.format(heavy=HEAVY)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert {"numpy", "scipy"} <= set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_verify_reads_the_store_without_the_read_models_library(tmp_path: Path) -> None:
    """`verbale verify` reads the event store only: SQLAlchemy (the read models, about half of
    its start-up) is imported only with --read-models or --record."""
    database = f"sqlite:///{tmp_path / 'store.db'}"
    subprocess.run([str(Path(sys.executable).parent / "verbale"), "simulate", "matches",
                    "--count", "1", "--store", "--database", database], cwd=ROOT,
                   capture_output=True, check=True, timeout=600)
    code = ("import sys\nfrom replay_web.cli import main\nsys.argv = ['verbale', 'verify', "
            f"'--database', {database!r}]\ntry:\n    main()\nexcept SystemExit as done:\n"
            "    print(done.code, 'sqlalchemy' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.stdout.strip().splitlines()[-1] == "0 False", done.stdout + done.stderr
