"""BibTeX and BibLaTeX exports, each entry written once for what it is written from.

An entry depends on nothing but its paper's record and the export's options (``formats``'
writers promise it), and on nothing of the record but its ``domain.record.ENTRY_FIELDS``, read
from raw rows (``store.records.entry_rows_by_id``: what of the paper's row, its tags, notes and
highlights an entry is written from). So an entry is kept under a digest of the format, the
options and those raw rows (BLAKE2b, 128 bits, over a serialization that tells every value and
type apart, ``digest``) and is only ever served for exactly that input: any write that changes
what a paper's entry is made from (a field, a tag or its name, a note, a highlight, the citation
key, the reading state) gives another digest, and the entry is written anew. Nothing is
invalidated because nothing can go stale; entries no export asks for any more are pushed out.

The store of entries is bounded (``MAX_CHARS`` characters, least recently used out first, about
2.5 times a 10,000-paper library with abstracts in LaTeX; ``_size``): memory does not grow with
the library. An
export of a library larger than the bound does not push out its own entries to make room for
more of them (that would leave none to find next time): it keeps those it has.

What an export writes is also kept in the store (``store.entries``: one entry per paper and
kind of export, the kind naming the format, the options and the writer's code, ``WRITER``),
in a write of its own after each batch, so that the first export of a server that just started
(or of another server process) writes only the entries whose papers changed. A failure to keep
them costs nothing but the time to write them next time: it is logged, the export goes on.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import marshal
import threading
from collections import OrderedDict
from collections.abc import Iterator
from functools import partial
from importlib.metadata import version
from inspect import signature
from pathlib import Path

import papershelf.domain
import papershelf.formats
from papershelf.formats.bibtex_write import bibtex_entries, join_entries
from papershelf.store import entries as kept
from papershelf.store import records
from papershelf.store.db import write as store_write

log = logging.getLogger(__name__)

ENTRY_WRITERS = {"bibtex": bibtex_entries, "biblatex": partial(bibtex_entries, biblatex=True)}
_DEFAULTS = {name: p.default for name, p in signature(bibtex_entries).parameters.items()
             if p.kind is p.KEYWORD_ONLY and name != "biblatex"}
MAX_CHARS = 48 * 2**20
BATCH = 500


def _size(entry: str) -> int:
    """What an entry counts against the bound: its length, four times over when it is not
    ASCII (Python may then hold up to four bytes a character): about the memory it takes."""
    return len(entry) if entry.isascii() else 4 * len(entry)


class EntryCache:
    """Entries by digest, bounded by their total length, least recently used out first; each
    marked with the last export (a number, ``run``) that used it. Safe across threads."""

    def __init__(self, max_chars: int = MAX_CHARS) -> None:
        self.max_chars = max_chars
        self._entries: OrderedDict[bytes, tuple[str, int]] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()
        self._runs = itertools.count(1)

    def __len__(self) -> int:
        return len(self._entries)

    def new_run(self) -> int:
        with self._lock:
            return next(self._runs)

    def get_many(self, keys: list[bytes], run: int) -> list[str | None]:
        out: list[str | None] = []
        with self._lock:
            for key in keys:
                found = self._entries.get(key)
                if found is None:
                    out.append(None)
                    continue
                self._entries[key] = (found[0], run)
                self._entries.move_to_end(key)
                out.append(found[0])
        return out

    def put_many(self, pairs: list[tuple[bytes, str]], run: int) -> None:
        with self._lock:
            for key, entry in pairs:
                if not self._make_room(_size(entry), run):
                    return
                self._entries[key] = (entry, run)
                self._chars += _size(entry)

    def _make_room(self, size: int, run: int) -> bool:
        """Push out entries no longer used until ``size`` more characters fit; False when they
        cannot (the bound is reached with the entries of export ``run`` itself)."""
        while self._entries and self._chars + size > self.max_chars:
            key, (entry, used) = next(iter(self._entries.items()))
            if used == run:
                return False
            del self._entries[key]
            self._chars -= _size(entry)
        return self._chars + size <= self.max_chars

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._chars = 0


CACHE = EntryCache()


def _writer_code() -> str:
    """A digest of the code an entry depends on: ``formats`` and ``domain`` (pure: an entry
    depends on nothing else, ``test_layers`` holds them to it) and pylatexenc, which encodes.
    An entry kept in the store by other code is never served."""
    h = hashlib.blake2b(version("pylatexenc").encode(), digest_size=16)
    for package in (papershelf.domain, papershelf.formats):
        for source in sorted(Path(package.__file__).parent.glob("*.py")):
            h.update(source.name.encode() + b"\0" + source.read_bytes())
    return h.hexdigest()


WRITER = _writer_code()


def _kind(fmt: str, options: tuple) -> str:
    """What names an export's entries in the store: the format, the options, the writer."""
    named = hashlib.blake2b(repr((options, WRITER)).encode(), digest_size=16).hexdigest()
    return f"{fmt}:{named}"


def _all_options(options: dict) -> dict:
    return {**_DEFAULTS, **options}  # one kind of export, however its options were said


def kind_of(fmt: str, options: dict) -> str:
    """The kind (in the store) of the entries ``entries_for(fmt, …, options)`` keeps."""
    return _kind(fmt, tuple(sorted(_all_options(options).items())))


def digest(fmt: str, options: tuple, raw: tuple) -> bytes:
    """The key of an entry: everything it is written from, serialized with each value's type
    (``marshal``'s format 2, which has no back-references, so equal values give equal bytes;
    ``repr`` for a value it cannot take), digested."""
    value = (fmt, options, raw)
    try:
        data = marshal.dumps(value, 2)
    except ValueError:
        data = repr(value).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).digest()


def entries_for(fmt: str, order: list[int], options: dict,
                cache: EntryCache = CACHE) -> Iterator[str]:
    """The entries of the papers ``order`` (ids, in that order) in ``fmt`` (``ENTRY_WRITERS``),
    read from the store in batches, each written only if ``cache`` lacks it. The options are
    checked now (a bad one raises before anything is read)."""
    options = _all_options(options)
    write = partial(ENTRY_WRITERS[fmt], **options)
    for _ in write([]):  # checks the options
        pass
    return _entries(fmt, order, write, tuple(sorted(options.items())), cache)


def _entries(fmt, order, write, options: tuple, cache: EntryCache) -> Iterator[str]:
    run = cache.new_run()
    kind = _kind(fmt, options)
    for i in range(0, len(order), BATCH):
        raws = records.entry_rows_by_id(order[i:i + BATCH])
        keys = [digest(fmt, options, raw) for raw in raws]
        entries = cache.get_many(keys, run)
        missing = [j for j, entry in enumerate(entries) if entry is None]
        if missing:
            ids = [raw[0][0] for raw in raws]  # (a raw row's paper row starts with its id)
            stored = kept.written(kind, [ids[j] for j in missing])
            unwritten = []
            for j in missing:
                found = stored.get(ids[j])
                if found is not None and found[0] == keys[j]:
                    entries[j] = found[1]
                else:
                    unwritten.append(j)
            if unwritten:
                written = write([records.entry_record_of(raws[j]) for j in unwritten])
                for j, entry in zip(unwritten, written, strict=True):
                    entries[j] = entry
                _keep(kind, [(ids[j], keys[j], entries[j]) for j in unwritten])
            cache.put_many([(keys[j], entries[j]) for j in missing], run)
        yield from entries


_forgotten = threading.Event()  # set once this process dropped other writers' entries


def _keep(kind: str, rows: list[tuple[int, bytes, str]]) -> None:
    """Entries just written, kept in the store for the next export; a failure is logged."""
    def keep():
        if not _forgotten.is_set():
            kept.forget_other_writers(WRITER)
        kept.keep(kind, WRITER, rows)

    try:
        store_write(keep)
    except Exception:  # noqa: BLE001 - a cache: the export goes on, the next writes them again
        log.warning("the entries an export wrote could not be kept", exc_info=True)
    else:
        _forgotten.set()


def write_ahead(fmt: str, ids: list[int], options: dict, cache: EntryCache = CACHE) -> None:
    """The entries of the papers ``ids`` written now (those ``cache`` or the store has are
    found, not written again) and kept, for an export to come."""
    for _ in entries_for(fmt, ids, options, cache):
        pass


def file_for(fmt: str, order: list[int], options: dict) -> Iterator[str]:
    """The export file: ``entries_for``'s entries a blank line apart."""
    return join_entries(entries_for(fmt, order, options))
