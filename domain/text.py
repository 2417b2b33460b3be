"""Messages for people, written in English, that keep their template for translation.

`domain` and `projections` explain refusals and findings in words, but do not choose a
language (they hold no catalogue and do no I/O). A message is built with `say(template,
**params)`: it is a `str`, the English template filled in, so it prints, compares and formats as
any string; and it keeps its template and parameters, so that the command line and the viewer
can show it in the reader's language from the one catalogue (replay_web/i18n.py `translate`,
docs/i18n.md). Babel extracts the templates (the keyword `say`, babel.cfg).

A parameter that is itself a `Said` is translated with it; anything else (a card code, a match
id, a number) is shown as it is. Once a `Said` is glued into another string (an f-string, `+`),
only the English text is left: build the whole sentence with one `say`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Said(str):
    """The English text of a message; `.template` and `.params` rebuild it in another language."""

    template: str
    params: Mapping[str, Any]

    def __new__(cls, template: str, params: Mapping[str, Any]) -> Said:
        said = super().__new__(cls, template.format(**params))
        said.template = template
        said.params = dict(params)
        return said

    def __reduce__(self) -> tuple[Any, ...]:
        return (Said, (self.template, self.params))


def say(template: str, /, **params: Any) -> Said:
    """The message `template` (English, with `{name}` placeholders) filled with `params`."""
    return Said(template, params)


def said_of(error: BaseException) -> Said | None:
    """The message an exception was raised with, if it was built with `say`."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Said) else None


EXCERPT_CHARS = 40


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """`text` quoted, cut to its first `limit` characters and "…" when longer: what an error
    message quotes of a bad input, however long the input."""
    one_line = " ".join(text.split()) if len(text) > limit else text
    return repr(one_line if len(one_line) <= limit else one_line[:limit] + "…")
