"""Today's engines beside the working tree's, in the same run (docs/benchmarks.md).

A change that must cost no speed is measured against the engines as they were, on the same
machine at the same moment: the `domain` package of a pinned commit is extracted from git into
a temporary directory, and the benchmark's own loop runs in two worker processes, one importing
that copy and one the working tree. The parent sends each worker the same runs in turn, so a
passing load hits both alike, and compares the medians.

A worker is the benchmark module started with `--worker`: it reads one JSON request a line on
stdin (`{"case": name, "run": r}`) and answers one JSON line with the rate. Both workers are
started the same way (`python -P`, the engines' root first on PYTHONPATH, this checkout's after
it for `bench`), so the only difference between them is the `domain` package they import. The
benchmark's loop therefore calls only what both packages have (the engines' public functions
and fields by name).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parent.parent
TODAY = "9da27ec55625f6169abcdba0a7b6b458154a1179"
"""The engines of "today" for issue 7 (typed games): the last commit before their states were
read and built by field name (domain/replacing.py, since replaced by msgspec Structs)."""


class BaselineUnavailable(RuntimeError):
    """No git, or a clone without the pinned commit (a shallow one): no comparison to make."""


def extract(ref: str, into: Path) -> Path:
    """The `domain` package of commit `ref`, extracted under `into`; returns `into`."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref,
                                  "domain"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", b"") or b""
        raise BaselineUnavailable(f"cannot read commit {ref[:12]} from git "
                                  f"({detail.decode(errors='replace').strip() or error})"
                                  ) from None
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


class Worker:
    """One benchmark process importing `domain` from `engines` (this checkout when None)."""

    def __init__(self, module: str, engines: Path | None, args: Sequence[str] = ()) -> None:
        path = [str(engines)] if engines is not None else []
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([*path, str(ROOT)])}
        # -P: no current directory on sys.path, so `domain` comes from PYTHONPATH's first entry.
        self._process = subprocess.Popen(
            [sys.executable, "-P", "-m", module, "--worker", *args], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=env, text=True, cwd=ROOT)
        self.domain = str(self._ask({"case": "where"})["domain"])

    def _ask(self, request: Mapping[str, object]) -> Mapping[str, object]:
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(request) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise RuntimeError(f"benchmark worker died on {request}")
        answer: Mapping[str, object] = json.loads(line)
        return answer

    def rate(self, case: str, run: int) -> float:
        return float(str(self._ask({"case": case, "run": run})["rate"]))

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def serve(cases: Mapping[str, Callable[[int], float]]) -> None:
    """The worker's loop: run each requested case and answer its rate, until stdin closes."""
    import domain

    for line in sys.stdin:
        request = json.loads(line)
        case = request["case"]
        if case == "where":
            answer: dict[str, object] = {"domain": str(Path(domain.__file__).parent)}
        else:
            answer = {"rate": cases[case](int(request["run"]))}
        print(json.dumps(answer), flush=True)


def compare(module: str, cases: Sequence[str], runs: int, args: Sequence[str] = (),
            ref: str = TODAY) -> dict[str, tuple[list[float], list[float]]]:
    """Per case, the rates of today's engines and of the working tree's, run by run.

    Each case is run once in each worker first, untimed, to warm caches and the allocator.
    """
    with tempfile.TemporaryDirectory(prefix="verbale-today-") as tmp, ExitStack() as stack:
        engines = extract(ref, Path(tmp))
        today = stack.enter_context(Worker(module, engines, args))
        current = stack.enter_context(Worker(module, None, args))
        if Path(today.domain) != engines / "domain" or Path(current.domain) != ROOT / "domain":
            raise RuntimeError(f"the workers import {today.domain} and {current.domain}")
        for case in cases:
            today.rate(case, -1)
            current.rate(case, -1)
        rates: dict[str, tuple[list[float], list[float]]] = {c: ([], []) for c in cases}
        for run in range(runs):
            for case in cases:
                before, after = rates[case]
                # Alternate which goes first, so neither always follows the other.
                if run % 2 == 0:
                    before.append(today.rate(case, run))
                    after.append(current.rate(case, run))
                else:
                    after.append(current.rate(case, run))
                    before.append(today.rate(case, run))
        return rates


def print_comparison(module: str, cases: Sequence[str], smazzate: int, runs: int,
                     ref: str) -> None:
    """Today's engines (commit `ref`) and the working tree's, same loop, same run: the medians,
    their ratio and the spread of the runs; a note instead when the commit is not here."""
    try:
        rates = compare(module, cases, runs, ("--smazzate", str(smazzate)), ref)
    except BaselineUnavailable as error:
        print(f"same-run comparison with today's engines skipped: {error}")
        return
    print(f"same run, today's engines (commit {ref[:12]}) against the working tree, "
          f"{runs} interleaved runs of {smazzate} smazzate, median:")
    for case, (before, after) in rates.items():
        old, new = statistics.median(before), statistics.median(after)
        print(f"  {case:<10} today {old:,.0f}/s  now {new:,.0f}/s  ratio {new / old:.3f}  "
              f"(runs today {_span(before)}, now {_span(after)})")


def _span(values: Sequence[float]) -> str:
    return f"{min(values):,.0f}...{max(values):,.0f}"


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options every engine benchmark takes for the same-run comparison."""
    parser.add_argument("--baseline", default=TODAY,
                        help="the commit whose engines are compared with the working tree's")
    parser.add_argument("--only-compare", action="store_true",
                        help="run only the same-run comparison with the baseline's engines")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)


def handled(args: argparse.Namespace, module: str,
            worker_cases: Callable[[int], Mapping[str, Callable[[int], float]]]) -> bool:
    """Serve as a worker, or run only the comparison, when the options say so."""
    if args.worker:
        serve(worker_cases(args.smazzate))
        return True
    if args.only_compare:
        print_comparison(module, ("engine", "verifiable"), args.smazzate, args.runs,
                         args.baseline)
        return True
    return False
