"""`verbale export`: a stream's events as JSON lines an auditor can check without our code.

Each line is the stored record (canonical JSON, docs/events.md) with one more field, `hash`:
SHA-256 of the canonical JSON of the line without `hash`, which is exactly the stored bytes.
The hash of the last line is the stream's **head hash**: published or signed, it pins the whole
match (docs/events.md section 1, "The chain and the head").

A file is written all or nothing: to a temporary file in the same directory, synced, then
renamed over the target; on any failure the temporary file is removed and the target, if it
existed, keeps its bytes.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO
from uuid import UUID

from domain.text import say
from projections.store.app import MatchStore
from projections.store.canonical import canonical_json, event_hash


class ExportError(LookupError):
    """A stream that the store does not hold."""


@dataclass(frozen=True, slots=True)
class Exported:
    """What an export wrote: the stream, how many events, the hash of the last one, and the
    head the store keeps for the stream (None: no head stored)."""

    stream: UUID
    events: int
    head: str
    stored_head: tuple[int, str] | None = None

    @property
    def head_agrees(self) -> bool:
        """The store's head is the last event exported (else the store is damaged: a cut or
        an addition at the end of the stream, which `verbale verify` reports)."""
        return self.stored_head == (self.events, self.head)


def export_jsonl(store: MatchStore, stream: UUID) -> Iterator[str]:
    for line, _hash in _lines(store, stream):
        yield line


def _lines(store: MatchStore, stream: UUID) -> Iterator[tuple[str, str]]:
    stored = store.stored(stream)
    if not stored:
        raise ExportError(say("match {stream}: no such match in the store", stream=str(stream)))
    for row in stored:
        record = json.loads(row.state.decode("utf-8"))
        record["hash"] = event_hash(row.state)
        yield canonical_json(record).decode("utf-8"), record["hash"]


def write_jsonl(store: MatchStore, stream: UUID, out: TextIO) -> Exported:
    """Write the stream's lines to `out`; what was written. Reads the whole stream first, so
    that a missing stream writes nothing."""
    lines = list(_lines(store, stream))
    for line, _hash in lines:
        out.write(line + "\n")
    return _exported(store, stream, len(lines), lines[-1][1])


def export_file(store: MatchStore, stream: UUID, path: Path) -> Exported:
    """Write the stream's lines to the file `path`, all or nothing (OSError if it cannot be
    written: nothing is left behind, an existing file keeps its bytes)."""
    lines = list(_lines(store, stream))
    write_whole(path, "".join(line + "\n" for line, _hash in lines).encode("utf-8"))
    return _exported(store, stream, len(lines), lines[-1][1])


def write_whole(path: Path, data: bytes) -> None:
    """`data` into the file `path`, all or nothing: a temporary sibling, synced and renamed
    over it (OSError if it cannot be written: nothing is left behind, an existing file keeps
    its bytes)."""
    target = Path(path)
    mode = _mode_for(target)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part",
                                             dir=target.parent)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_directory(target.parent)


def _exported(store: MatchStore, stream: UUID, events: int, head: str) -> Exported:
    stored = store.chained.select_head(stream)
    return Exported(stream, events, head, None if stored is None else (stored[1], stored[2]))


def _mode_for(target: Path) -> int:
    """An existing file's permissions, else those a new file gets (0666 less the umask):
    mkstemp's 0600 is not what the user asked for."""
    with contextlib.suppress(OSError):
        return target.stat().st_mode & 0o777
    return 0o666 & ~_umask()


def _sync_directory(directory: Path) -> None:
    """Make the rename durable (POSIX); a platform without directory descriptors skips it."""
    with contextlib.suppress(OSError):
        handle = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


MANIFEST = "heads.txt"
"""In a directory export: one line per match, `<id> <events> <head hash>`, in export order."""


def export_directory(store: MatchStore, streams: Iterable[UUID], directory: Path
                     ) -> list[Exported]:
    """Each stream to `directory/<id>.jsonl` (the export of export_jsonl) and a manifest of
    their heads, all or nothing: written into a sibling directory first and renamed to
    `directory` at the end, which must not exist yet (FileExistsError); on any failure nothing
    is left."""
    target = Path(directory)
    if target.exists():
        raise FileExistsError(errno.EEXIST, "already exists", str(target))
    temporary = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".part",
                                      dir=target.parent))
    try:
        done = [export_file(store, stream, temporary / f"{stream}.jsonl") for stream in streams]
        with open(temporary / MANIFEST, "w", encoding="utf-8", newline="\n") as manifest:
            manifest.writelines(f"{e.stream} {e.events} {e.head}\n" for e in done)
            manifest.flush()
            os.fsync(manifest.fileno())
        os.chmod(temporary, 0o777 & ~_umask())
        os.rename(temporary, target)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    _sync_directory(target.parent)
    return done


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask
