"""The library list with its new sorts, filters and total count: a page of 25 of 10,000 papers
(SQLite, or the store at ``--database-url``), p50/p95 per kind of page, and the share of it
the total count takes (the count alone, same run, same filters).

    python bench/listing.py [--papers 10000] [--repeat 40] [--database-url URL]

The library is imported as a BibTeX file (the import's batches), with tags and venues, a third
of it starred and read. Last, a tag added to 1,000 papers and taken off again, in one bulk
change each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

WORDS = ("agent policy optimization reinforcement learning language model reward tool benchmark "
         "environment trajectory planning reasoning search retrieval memory scaling").split()
VENUES = ["NeurIPS", "ICML", "ICLR", "ACL", "EMNLP", "CVPR", "AAAI", None, None]


def bib(n: int, rng: random.Random) -> str:
    out = []
    for i in range(n):
        title = " ".join(rng.choice(WORDS) for _ in range(7)).capitalize() + f" {i}"
        venue = rng.choice(VENUES)
        fields = [f"title = {{{title}}}", f"author = {{Author{i % 997}, Ann and Other, Bo}}",
                  f"year = {{{2000 + i % 26}}}", f"keywords = {{t{i % 40}, t{i % 7}}}",
                  f"abstract = {{{' '.join(rng.choice(WORDS) for _ in range(80))}}}"]
        if venue:
            fields.append(f"booktitle = {{{venue}}}")
        out.append(f"@inproceedings{{k{i},\n  " + ",\n  ".join(fields) + "\n}\n")
    return "\n".join(out)


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--database-url")
    args = parser.parse_args()

    from papershelf.app import create_app
    from papershelf.services import auth, listing, papers, transfer
    from papershelf.store.models import Paper

    tmp = Path(tempfile.mkdtemp())
    url = args.database_url or f"sqlite:///{tmp / 'papershelf.db'}"
    app = create_app({"DATA_DIR": str(tmp / "data"), "DATABASE_URL": url, "ARXIV_API": "off",
                      "SECRET_KEY": "bench", "TESTING": True})
    rng = random.Random(7)
    with app.extensions["papershelf_db"].connection_context():
        user = auth.get_or_create_user(f"bench{rng.randrange(10**6)}")
        start = time.perf_counter()
        transfer.import_file(user, bib(args.papers, rng), "bibtex")
        print(f"imported {args.papers} papers in {time.perf_counter() - start:.1f} s")
        ids = [pid for (pid,) in Paper.select(Paper.id).where(Paper.user == user).tuples()]
        third = ids[::3]
        papers.bulk_update(user, third, set_fields={"starred": True, "reading_state": "read"})

        cases = {
            "added, page 1": dict(sort="saved", page=1),
            "added, page 200": dict(sort="saved", page=200),
            "title, page 1": dict(sort="title", page=1),
            "first author": dict(sort="first_author", page=1),
            "venue": dict(sort="venue", page=1),
            "citation key": dict(sort="citation_key", page=1),
            "starred, read": dict(sort="saved", page=1, starred=True, state="read"),
            "tag t3 by title": dict(sort="title", page=1, tag="t3"),
            "search 'policy'": dict(sort="saved", page=1, q="policy"),
        }
        print(f"{'page of 25':<20} {'p50 ms':>8} {'p95 ms':>8} {'count p50':>10}")
        for name, case in cases.items():
            page = timed(lambda c=case: listing.list_papers(user, limit=25, **c), args.repeat)
            filters = {k: v for k, v in case.items() if k not in ("sort", "page")}
            count = timed(lambda f=filters: listing.count_papers(user, **f), args.repeat)
            print(f"{name:<20} {statistics.median(page):8.1f} "
                  f"{statistics.quantiles(page, n=20)[18]:8.1f} {statistics.median(count):10.1f}")
        # Each a real change of 1,000 papers' tags (one transaction each): the tag added, then
        # taken off again.
        tag, untag = [], []
        for _ in range(3):
            tag += timed(lambda: papers.bulk_update(user, ids[:1000], add_tags=["bench"]), 1)
            untag += timed(lambda: papers.bulk_update(user, ids[:1000], remove_tags=["bench"]), 1)
        print(f"bulk change of 1,000 papers' tags, one transaction: tag added "
              f"{statistics.median(tag):.0f} ms, taken off {statistics.median(untag):.0f} ms "
              f"(median of 3)")


if __name__ == "__main__":
    main()
