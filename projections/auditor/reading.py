"""Reading an export (`verbale export`): one JSON object per line, each with the keys of a record
(docs/events.md); anything else is `UnreadableExport`, naming the file and the line."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from .report import N_, Line, UnreadableExport, say

RECORD_KEYS = ("stream", "version", "type", "class_version", "timestamp", "previous_hash",
               "data", "hash")


def read_export(texts: Iterable[str], source: str = "export") -> list[Line]:
    """The lines of an export, each a JSON object with the keys of a record; UnreadableExport
    naming the line otherwise."""
    lines = []
    for number, text in enumerate(texts, start=1):
        if not text.strip():
            raise UnreadableExport(source, number, say(N_(
                "empty line (an export has one JSON object per line)")))
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise UnreadableExport(source, number, say(N_(
                "not JSON: {error} at column {column}"), error=error.msg,
                column=error.colno)) from None
        if not isinstance(record, dict):
            raise UnreadableExport(source, number, say(N_(
                "not a record: a JSON {kind}, not an object"), kind=type(record).__name__))
        missing = [key for key in RECORD_KEYS if key not in record]
        if missing:
            raise UnreadableExport(source, number, say(N_("not a record: no {keys}"),
                                                       keys=", ".join(missing)))
        if not isinstance(record["version"], int) or not isinstance(record["type"], str) \
                or not isinstance(record["data"], dict):
            raise UnreadableExport(source, number, say(N_(
                "not a record: `version` must be an integer, `type` a string and `data` an "
                "object")))
        lines.append(Line(number, record))
    if not lines:
        raise UnreadableExport(source, None, say(N_("no events: the file is empty")))
    return lines


def read_file(path: Path, source: str | None = None) -> list[Line]:
    name = source or str(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise UnreadableExport(name, None, say(N_("cannot read it: {reason}"),
                                               reason=error.strerror or error)) from None
    texts = []
    for number, chunk in enumerate(raw.split(b"\n"), start=1):
        try:
            texts.append(chunk.decode("utf-8"))
        except UnicodeDecodeError:
            raise UnreadableExport(name, number, say(N_("not UTF-8"))) from None
    if texts and texts[-1] == "":
        texts.pop()   # the newline that ends the last line
    return read_export(texts, name)
