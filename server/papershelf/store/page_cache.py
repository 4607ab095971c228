"""What page lookups read of papers, kept in this process by the version of each paper read
with it (PostgreSQL: ``papers.page_matches``), so a page asked about again costs the query
that finds its papers and their versions, not the reading and building of their answers."""

import threading
from collections import OrderedDict


class AnswerCache:
    """What pages were answered about papers, by kind (``own``: a user's paper; ``shared``: a
    fellow member's, its notes count and highlights) and paper id, each kept with the version of
    the paper it was read at (``store.papers.page_matches``) and served only at that version.
    Bounded (``size`` papers, least recently used out first); safe across threads. A process's
    own: another process's writes change the versions it reads, so nothing here goes stale."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, int], tuple[str, object]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def get_many(self, wanted: list[tuple[str, int, str]]) -> list:
        """For each ``(kind, paper id, version)``, what was kept at that version, or None."""
        out = []
        with self._lock:
            for kind, pid, version in wanted:
                found = self._kept.get((kind, pid))
                if found is None or found[0] != version:
                    out.append(None)
                    continue
                self._kept.move_to_end((kind, pid))
                out.append(found[1])
        return out

    def put_many(self, kept: list[tuple[str, int, str, object]]) -> None:
        with self._lock:
            for kind, pid, version, value in kept:
                self._kept[(kind, pid)] = (version, value)
                self._kept.move_to_end((kind, pid))
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


# Two team libraries of 10,000 papers each, with fellow members' shares: about 40 MB at most.
CACHE = AnswerCache(40_000)
