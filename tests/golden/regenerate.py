"""Write the golden playthroughs afresh: `python -m tests.golden.regenerate`
(tests/golden/README.md). Run it only when a change to what they show is meant; review the diff
before committing it."""

from __future__ import annotations

from tests.golden.playthrough import CASES, playthrough


def main() -> None:
    for case in CASES:
        text = playthrough(case)
        changed = not case.path.exists() or case.path.read_text(encoding="utf-8") != text
        case.path.write_text(text, encoding="utf-8")
        print(f"{case.path.name}: {'written' if changed else 'unchanged'}")


if __name__ == "__main__":
    main()
