"""How long a `verbale` command takes from process start to its answer, on a small store.

Target (issue 9): under 0.3 s for a command's start (import what a command needs, when it needs
it). Measured as the wall time of the whole process for quick commands, whose own work is a few
milliseconds: `--version`, `--help` (every command's help line; issue 24: without numpy, scipy
or WeasyPrint, its time printed beside `matches --limit 1`'s), `legal cirulla`, `legal
briscola`, `verify --match` of an unknown prefix (opens the store read-only and answers),
`export --match` of the same, `matches --limit 1`.

The baseline is the command line of the commit before issue 9 (BASELINE), run from a copy of its
`domain`, `projections` and `replay_web` extracted from git, with the same interpreter and
packages, in the same run: both are timed in turn, run by run. Commands the baseline did not
have are timed for today only. `--baseline COMMIT` compares with another commit instead (every
command then counts as the baseline's).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from bench.machine import machine

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "3843b69"
"""The last commit before issue 9: every command module imported at start."""

CASES: dict[str, list[str]] = {
    "--version": ["--version"],
    "--help": ["--help"],
    "legal cirulla": ["legal", "cirulla", "--table", "4c 7b 2s", "--hand", "4d"],
    "legal briscola": ["legal", "briscola", "--briscola", "7d", "--hand", "4d Rc"],
    "verify --match (unknown)": ["verify", "--match", "00000000-0000-0000-0000-000000000000"],
    "export --match (unknown)": ["export", "--match", "00000000-0000-0000-0000-000000000000"],
    "matches --limit 1": ["matches", "--limit", "1"],
}
BASELINE_HAS = {"--version", "--help", "legal cirulla", "verify --match (unknown)",
                "export --match (unknown)"}


def extract(ref: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref, "domain",
                              "projections", "replay_web"], capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def timed(code_root: Path, args: list[str], env: dict[str, str]) -> float:
    command = [sys.executable, "-P", "-c",
               "import sys; from replay_web.cli import main; sys.argv[0] = 'verbale'; main()",
               *args]
    started = time.perf_counter()
    subprocess.run(command, cwd=env["BENCH_CWD"], env={**env, "PYTHONPATH": str(code_root)},
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--baseline", default=BASELINE,
                        help=f"the commit to compare with (default {BASELINE}, before issue 9)")
    options = parser.parse_args()
    baseline_has = BASELINE_HAS if options.baseline == BASELINE else set(CASES)
    with tempfile.TemporaryDirectory() as work:
        old = extract(options.baseline, Path(work) / "old")
        store = Path(work) / "store.db"
        env = {**os.environ, "VERBALE_DATABASE_URL": f"sqlite:///{store}", "BENCH_CWD": work}
        subprocess.run([sys.executable, "-P", "-c",
                        "from replay_web.cli import main; main()", "simulate", "matches",
                        "--count", "2", "--store"], cwd=work,
                       env={**env, "PYTHONPATH": str(ROOT)}, check=True,
                       stdout=subprocess.DEVNULL)
        today: dict[str, list[float]] = {name: [] for name in CASES}
        before: dict[str, list[float]] = {name: [] for name in baseline_has}
        for _ in range(options.runs):
            for name, args in CASES.items():
                today[name].append(timed(ROOT, args, env))
                if name in baseline_has:
                    before[name].append(timed(old, args, env))
    print(f"machine: {machine()}; {options.runs} runs each, median wall time of the process")
    print(f"baseline: commit {options.baseline}")
    print(f"{'command':<26} {'today':>8} {'baseline':>9} {'ratio':>6}")
    for name in CASES:
        now = statistics.median(today[name])
        if name in before:
            then = statistics.median(before[name])
            print(f"{name:<26} {now:>7.3f}s {then:>8.3f}s {now / then:>6.2f}")
        else:
            print(f"{name:<26} {now:>7.3f}s {'-':>9} {'':>6}")
    help_time, matches_time = (statistics.median(today[name])
                               for name in ("--help", "matches --limit 1"))
    print(f"--help takes {help_time / matches_time:.2f}x the time of matches --limit 1")


if __name__ == "__main__":
    main()
