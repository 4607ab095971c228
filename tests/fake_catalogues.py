"""Fake Semantic Scholar, DBLP and Crossref on loopback: one real HTTP server in a thread that
answers the services' real paths with answers shaped like theirs (see ``tests/fixtures/
catalogues/README.md`` for where the shapes come from).

- ``POST /graph/v1/paper/batch?fields=…`` with ``{"ids": ["arXiv:<id>", …]}``: a list in the
  order asked, ``null`` for an unknown id; ``GET /graph/v1/paper/arXiv:<id>``: one paper or 404.
- ``GET /search/publ/api?q=…&format=json&h=…&f=…``: DBLP's ``result.hits`` (every word of ``q``
  must start a word of a record's title or authors, as DBLP's search does), paged by ``h``/``f``;
  ``GET /rec/<key>.bib``: the record's BibTeX.
- ``GET /works/<doi>``: Crossref's ``{"status": "ok", "message": {…}}`` or 404;
  ``GET /works?query.bibliographic=…&rows=…``: the best ``rows`` works by shared words;
  ``GET /works?filter=doi:…,doi:…``: the works of those DOIs.

``fail_next(service, kind)`` scripts faults: ``html`` (a 200 HTML page), ``429`` (with
``Retry-After``), ``500``, ``timeout`` (answers after ``delay`` seconds), ``truncated`` (JSON cut
in the middle). ``generate`` makes answers for ids matching a pattern (bench/resolve.py).
``calls`` logs ``(service, method, path)`` of every request.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from tests.loopback import Handler, LoopbackServer

FIXTURES = Path(__file__).parent / "fixtures" / "catalogues"
_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def load_corpus(directory: Path = FIXTURES) -> dict:
    return json.loads((directory / "corpus.json").read_text("utf-8"))


def dblp_bibtex(rec: dict) -> str:
    """DBLP's BibTeX of a record, in the layout ``rec/<key>.bib`` answers."""
    fields = [("author", " and\n                  ".join(rec["authors"]))]
    if rec.get("editors"):
        fields.append(("editor", " and\n                  ".join(rec["editors"])))
    fields.append(("title", rec["title"].rstrip(".")))
    if rec["type"] == "inproceedings":
        fields.append(("booktitle", rec["booktitle"]))
    else:
        fields.append(("journal", rec["journal"]))
        for name in ("volume", "number"):
            if rec.get(name):
                fields.append((name, rec[name]))
    if rec.get("pages"):
        fields.append(("pages", rec["pages"].replace("-", "--")))
    if rec.get("publisher"):
        fields.append(("publisher", rec["publisher"]))
    fields.append(("year", str(rec["year"])))
    for name in ("url", "doi"):
        if rec.get(name):
            fields.append((name, rec[name]))
    if rec["key"].startswith("journals/corr/"):
        fields += [("eprinttype", "arXiv"), ("eprint", rec["volume"].replace("abs/", ""))]
    fields += [("timestamp", "Thu, 21 Jan 2021 15:15:21 +0100"),
               ("biburl", f"https://dblp.org/rec/{rec['key']}.bib"),
               ("bibsource", "dblp computer science bibliography, https://dblp.org")]
    body = ",\n".join(f"  {name:<12} = {{{value}}}" for name, value in fields)
    return f"@{rec['type']}{{DBLP:{rec['key']},\n{body}\n}}\n"


def dblp_hit(rec: dict, score: int = 10) -> dict:
    authors = [{"@pid": f"00/{i}", "text": a} for i, a in enumerate(rec["authors"])]
    info = {
        "authors": {"author": authors[0] if len(authors) == 1 else authors},
        "title": rec["title"] if rec["title"].endswith(".") else rec["title"] + ".",
        "venue": rec["venue"],
        "pages": rec.get("pages"),
        "year": str(rec["year"]),
        "type": "Conference and Workshop Papers" if rec["type"] == "inproceedings"
                else "Journal Articles",
        "access": "open",
        "key": rec["key"],
        "doi": rec.get("doi"),
        "ee": rec.get("url"),
        "url": f"https://dblp.org/rec/{rec['key']}",
    }
    for name in ("volume", "number"):
        if rec.get(name):
            info[name] = rec[name]
    return {"@score": str(score), "@id": str(abs(hash(rec["key"])) % 10**8),
            "info": {k: v for k, v in info.items() if v is not None},
            "url": f"URL#{abs(hash(rec['key'])) % 10**7}"}


class FakeCatalogues(LoopbackServer):
    def __init__(self, generate: str | None = None, generated_share: float = 0.4):
        corpus = load_corpus()
        self.s2 = {p["externalIds"]["ArXiv"]: p for p in corpus["semantic_scholar"]}
        self.dblp = {r["key"]: r for r in corpus["dblp"]}
        self.crossref = {w["DOI"].lower(): w for w in corpus["crossref"]}
        self.generate = re.compile(generate) if generate else None
        self.generated_share = generated_share
        self.calls: list[tuple[str, str, str]] = []
        self.script: dict[str, deque] = {"s2": deque(), "dblp": deque(), "crossref": deque()}
        self.delay = 3.0
        self._lock = threading.Lock()
        super().__init__(self._handler())

    @property
    def url(self) -> str:
        return self.origin

    def settings(self, **more) -> dict:
        """App settings pointing every catalogue here, with no spacing between calls."""
        return {"S2_API": self.url, "DBLP_API": self.url, "CROSSREF_API": self.url,
                "S2_MIN_INTERVAL": 0.0, "DBLP_MIN_INTERVAL": 0.0, "CROSSREF_MIN_INTERVAL": 0.0,
                "CATALOGUE_TIMEOUT": 1.0, **more}

    def fail_next(self, service: str, kind: str, times: int = 1) -> None:
        for _ in range(times):
            self.script[service].append(kind)

    def count(self, service: str) -> int:
        return sum(1 for c in self.calls if c[0] == service)

    # -- generated answers (bench) ------------------------------------------------------------

    def _generated(self, arxiv_id: str) -> int | None:
        """A number for a generated id: which kind of paper it is (None: not generated)."""
        if self.generate is None or not self.generate.fullmatch(arxiv_id):
            return None
        return int(re.sub(r"\D", "", arxiv_id)) % 100

    def _generated_s2(self, arxiv_id: str) -> dict | None:
        n = self._generated(arxiv_id)
        if n is None:
            return None
        published = n < self.generated_share * 100
        with_doi = n < self.generated_share * 50  # half of them at a venue with DOIs
        key = f"conf/gen/P{arxiv_id.replace('.', '')}" if published else \
            f"journals/corr/abs-{arxiv_id.replace('.', '-')}"
        doi = f"10.5555/gen.{arxiv_id}" if with_doi else None
        if doi and doi not in self.crossref:
            self.crossref[doi] = {
                "DOI": doi, "type": "proceedings-article", "title": [f"Generated Paper {arxiv_id}"],
                "author": [{"given": "Ada", "family": "Lovelace", "sequence": "first"}],
                "container-title": ["2025 IEEE/CVF Conference on Computer Vision and Pattern "
                                    "Recognition (CVPR)"], "page": "1-12", "publisher": "IEEE",
                "issued": {"date-parts": [[2025, 6]]}}
        if published and key not in self.dblp:
            self.dblp[key] = {"key": key, "type": "inproceedings", "venue": "NeurIPS",
                              "title": f"Generated Paper {arxiv_id}", "authors": ["Ada Lovelace"],
                              "booktitle": "Advances in Neural Information Processing Systems 38",
                              "pages": "1-12", "year": 2025}
        ids = {"ArXiv": arxiv_id, "DBLP": key, **({"DOI": doi} if doi else {})}
        return {"paperId": f"gen{arxiv_id}", "externalIds": ids,
                "title": f"Generated Paper {arxiv_id}", "venue": "arXiv.org", "year": 2025,
                "authors": [{"authorId": "1", "name": "Ada Lovelace"}],
                "publicationVenue": None, "journal": {"name": "ArXiv"},
                "publicationTypes": ["JournalArticle"], "publicationDate": "2025-01-01"}

    # -- answers ------------------------------------------------------------------------------

    def s2_paper(self, raw_id: str) -> dict | None:
        arxiv_id = raw_id.split(":", 1)[1] if raw_id.lower().startswith("arxiv:") else None
        if arxiv_id is None:
            return None
        return self.s2.get(arxiv_id) or self._generated_s2(arxiv_id)

    def dblp_search(self, q: str, h: int, f: int) -> dict:
        wanted = _words(q)
        hits = []
        for rec in self.dblp.values():
            words = _words(rec["title"] + " " + " ".join(rec["authors"]))
            if wanted and all(any(w.startswith(x) for w in words) for x in wanted):
                hits.append(rec)
        page = hits[f:f + h]
        result = {"query": q, "status": {"@code": "200", "text": "OK"},
                  "time": {"@unit": "msecs", "text": "1.00"}, "completions": {},
                  "hits": {"@total": str(len(hits)), "@computed": str(len(hits)),
                           "@sent": str(len(page)), "@first": str(f)}}
        if page:
            result["hits"]["hit"] = [dblp_hit(r, 10 - i) for i, r in enumerate(page)]
        return {"result": result}

    def crossref_search(self, q: str, rows: int) -> dict:
        wanted = set(_words(q))
        scored = []
        for work in self.crossref.values():
            words = set(_words(" ".join(work.get("title", []))
                               + " " + " ".join(a.get("family", "") for a in work.get("author", []))))
            score = len(wanted & words)
            if score:
                scored.append((-score, work["DOI"], work))
        items = [dict(w, score=-s) for s, _, w in sorted(scored)[:rows]]
        return {"status": "ok", "message-type": "work-list", "message-version": "1.0.0",
                "message": {"facets": {}, "total-results": len(scored), "items": items,
                            "items-per-page": rows, "query": {"start-index": 0,
                                                              "search-terms": q}}}

    # -- the server ---------------------------------------------------------------------------

    def route(self, method: str, path: str, query: dict, body: bytes):
        """``(service, status, content type, body)`` for one request."""
        q = {k: v[0] for k, v in query.items()}
        if path == "/graph/v1/paper/batch" and method == "POST":
            try:
                ids = json.loads(body)["ids"]
            except (ValueError, KeyError, TypeError):
                return "s2", 400, "application/json", b'{"error": "Unacceptable request body"}'
            if len(ids) > 500:
                return "s2", 400, "application/json", b'{"error": "-- ids: size must be between 1 and 500"}'
            return "s2", 200, "application/json", json.dumps(
                [self.s2_paper(i) for i in ids]).encode()
        if path.startswith("/graph/v1/paper/") and method == "GET":
            paper = self.s2_paper(unquote(path.rsplit("/", 1)[1]))
            if paper is None:
                return "s2", 404, "application/json", b'{"error": "Paper not found"}'
            return "s2", 200, "application/json", json.dumps(paper).encode()
        if path == "/search/publ/api":
            answer = self.dblp_search(q.get("q", ""), int(q.get("h", 30)), int(q.get("f", 0)))
            return "dblp", 200, "application/json", json.dumps(answer).encode()
        if path.startswith("/rec/") and path.endswith(".bib"):
            rec = self.dblp.get(unquote(path[len("/rec/"):-len(".bib")]))
            if rec is None:
                return "dblp", 404, "text/html", b"<html><body>Error 404: not found</body></html>"
            return "dblp", 200, "text/x-bibtex; charset=utf-8", dblp_bibtex(rec).encode()
        if path == "/works" and q.get("filter"):
            dois = [f[4:].lower() for f in q["filter"].split(",") if f.startswith("doi:")]
            items = [self.crossref[d] for d in dois if d in self.crossref]
            answer = {"status": "ok", "message-type": "work-list", "message-version": "1.0.0",
                      "message": {"facets": {}, "total-results": len(items), "items": items,
                                  "items-per-page": int(q.get("rows", 20)),
                                  "query": {"start-index": 0, "search-terms": None}}}
            return "crossref", 200, "application/json", json.dumps(answer).encode()
        if path == "/works":
            answer = self.crossref_search(q.get("query.bibliographic", ""), int(q.get("rows", 20)))
            return "crossref", 200, "application/json", json.dumps(answer).encode()
        if path.startswith("/works/"):
            work = self.crossref.get(unquote(path[len("/works/"):]).lower())
            if work is None:
                return "crossref", 404, "text/plain", b"Resource not found."
            return "crossref", 200, "application/json", json.dumps(
                {"status": "ok", "message-type": "work", "message-version": "1.0.0",
                 "message": work}).encode()
        return "other", 404, "text/plain", b"not found"

    def _handler(self):
        fake = self

        class Answer(Handler):
            def _answer(self, method: str):
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                service, status, kind, data = fake.route(method, parts.path,
                                                         parse_qs(parts.query), body)
                with fake._lock:
                    fake.calls.append((service, method, parts.path))
                    fault = fake.script[service].popleft() if fake.script.get(service) else None
                headers = {}
                if fault == "html":
                    status, kind = 200, "text/html; charset=utf-8"
                    data = b"<!DOCTYPE html><html><body><h1>Service temporarily unavailable" \
                           b"</h1></body></html>"
                elif fault == "429":
                    status, kind, data = 429, "application/json", \
                        b'{"message": "Too Many Requests. Please wait and try again"}'
                    headers["Retry-After"] = "7"
                elif fault == "500":
                    status, kind, data = 500, "text/html", b"<html>Internal Server Error</html>"
                elif fault == "timeout":
                    time.sleep(fake.delay)
                elif fault == "truncated":
                    data = data[:max(1, len(data) // 2)]
                self.send(status, kind, data, headers)

            def do_GET(self):
                self._answer("GET")

            def do_POST(self):
                self._answer("POST")

        return Answer


if __name__ == "__main__":  # python -m tests.fake_catalogues [pattern] [share]: bench/resolve.py
    import sys

    pattern = sys.argv[1] if len(sys.argv) > 1 else None
    share = float(sys.argv[2]) if len(sys.argv) > 2 else 0.4
    with FakeCatalogues(generate=pattern, generated_share=share) as fake:
        print(fake.url, flush=True)
        threading.Event().wait()
