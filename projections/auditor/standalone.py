"""docs/verify_checkpoint.py, the checkpoint checker in one file: `checkpoint.py` with the two
modules it uses (`ed25519.py`, `merkle.py`) written into it, so that an auditor without verbale
copies one file and runs it with `python3 -I` (docs/audit-log.md).

    python -m projections.auditor.standalone [PATH]    # writes it (docs/verify_checkpoint.py)

The script is made, never edited: a test checks that it is `script()` to the byte.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

HERE = Path(__file__).parent
PARTS = ("ed25519.py", "merkle.py")
MAIN = "checkpoint.py"
SCRIPT = HERE.parents[1] / "docs" / "verify_checkpoint.py"
MADE = ("# Made by `python -m projections.auditor.standalone` from projections/auditor/\n"
        "# {parts}: edit those, not this file.\n")


def _pieces(source: str) -> tuple[str | None, list[str], str]:
    """A module's docstring (as written, quotes included), its absolute imports (each as
    written) and the rest of its source, without the docstring, `from __future__`, its imports
    and its package's."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    docstring = ast.get_docstring(tree, clean=False)
    if docstring is not None:
        docstring = "".join(lines[:tree.body[0].end_lineno]).strip()
    dropped: set[int] = set()
    imports: list[str] = []
    for node in tree.body:
        is_docstring = node is tree.body[0] and docstring is not None
        if not (is_docstring or isinstance(node, ast.Import | ast.ImportFrom)):
            continue
        span = range(node.lineno - 1, node.end_lineno or node.lineno)
        dropped.update(span)
        absolute = isinstance(node, ast.Import) or (
            isinstance(node, ast.ImportFrom) and node.level == 0
            and node.module != "__future__")
        if absolute and not is_docstring:
            imports.append("".join(lines[i] for i in span).strip())
    rest = "".join(line for i, line in enumerate(lines) if i not in dropped)
    return docstring, imports, rest.strip("\n") + "\n"


def _import_key(line: str) -> tuple[bool, str]:
    """isort's order: `import x` before `from x import y`, each by module."""
    return line.startswith("from "), line.split()[1]


def script() -> str:
    """The text of docs/verify_checkpoint.py."""
    docstring, imports, main = _pieces((HERE / MAIN).read_text(encoding="utf-8"))
    bodies = []
    for part in PARTS:
        _, more, body = _pieces((HERE / part).read_text(encoding="utf-8"))
        imports += more
        bodies.append(f"# ---- projections/auditor/{part} ----\n\n{body}")
    bodies.append(f"# ---- projections/auditor/{MAIN} ----\n\n{main}")
    made = MADE.format(parts=", ".join((*PARTS, MAIN)))
    head = f"#!/usr/bin/env python3\n{docstring}\n\n{made}\nfrom __future__ import annotations\n\n"
    return head + "\n".join(sorted(set(imports), key=_import_key)) + "\n\n" + \
        "\n\n".join(bodies)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else SCRIPT
    target.write_text(script(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
