"""Hand records against python-chess counted in instructions, which a loaded machine does not
disturb (docs/benchmarks.md, issue 12).

Run: .venv/bin/python -m bench.notation_instructions [--matches N]
Needs valgrind (Debian's `valgrind`: apt-get install valgrind).

The corpora of bench_notation (N demo matches written in the notation; as many python-chess
moves in PGN) are made once and handed to child processes, each run under `valgrind
--tool=callgrind` with PYTHONHASHSEED=0: one that reads and validates the text once, one that
does it three times. Half the difference is one run, start-up and warm-up cancelled. The same
for python-chess's `read_game`. Prints both counts and their ratio (python-chess over verbale:
1.0 is parity).
"""

from __future__ import annotations

import argparse
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.bench_notation import chess_corpus, timed_chess, timed_verbale, verbale_corpus

_COLLECTED = re.compile(r"Collected : (\d+)")


def _child(which: str, corpus: Path, runs: int) -> None:
    """The measured process: `runs` reads of the corpus (verbale's or python-chess's)."""
    text = pickle.loads(corpus.read_bytes())
    for _ in range(runs):
        if which == "verbale":
            timed_verbale(text)
        else:
            timed_chess(text)


def instructions(which: str, corpus: Path, runs: int, scratch: Path) -> int:
    out = scratch / f"callgrind.{which}.{runs}"
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-m",
         "bench.notation_instructions", "--child", which, str(corpus), str(runs)],
        env=env, capture_output=True, text=True, check=True)
    found = _COLLECTED.search(done.stderr)
    if found is None:
        raise RuntimeError(f"valgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def one_run(which: str, corpus: Path, scratch: Path) -> int:
    return (instructions(which, corpus, 3, scratch) - instructions(which, corpus, 1, scratch)) // 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--child", nargs=3, metavar=("WHICH", "CORPUS", "RUNS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        which, corpus, runs = args.child
        _child(which, Path(corpus), int(runs))
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    ours = verbale_corpus(args.matches)
    theirs = chess_corpus(ours.plays)
    with tempfile.TemporaryDirectory() as name:
        scratch = Path(name)
        counts = {}
        for which, text in (("verbale", ours.text), ("chess", theirs.text)):
            corpus = scratch / f"{which}.pickle"
            corpus.write_bytes(pickle.dumps(text))
            counts[which] = one_run(which, corpus, scratch)
    print(f"{args.matches} matches, {ours.plays:,} plays; as many python-chess moves")
    print(f"verbale read + validate: {counts['verbale'] / 1e6:,.1f} M instructions")
    print(f"python-chess read_game:  {counts['chess'] / 1e6:,.1f} M instructions")
    print(f"python-chess / verbale: {counts['chess'] / counts['verbale']:.3f} (1.0 is parity)")


if __name__ == "__main__":
    main()
