"""A fake arXiv API on loopback: a real HTTP server in a thread that answers ``/api/query``
from the Atom responses recorded in ``tests/fixtures/arxiv/``.

Every ``<entry>`` of every recorded feed is indexed by its arXiv id; a query for ``id_list=…``
gets a feed with the recorded entries of the ids it knows (an id it does not know is left out,
as arXiv does). With ``generate`` set, ids matching it get an entry made from
``generated_entry.xml`` (load tests). ``answer_next`` scripts the next answers: a status, a
recorded file served as is (the 503 page, a malformed body), a delay before answering.
``requests`` logs every call with its arrival time (``time.monotonic``).
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from tests.loopback import Handler, LoopbackServer

FIXTURES = Path(__file__).parent / "fixtures" / "arxiv"

_ENTRY = re.compile(r"  <entry>.*?</entry>\n", re.DOTALL)
_ENTRY_ID = re.compile(r"<id>http://arxiv\.org/abs/(.+?)(?:v\d+)?</id>")

FEED_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?id_list={ids}" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=&amp;id_list={ids}&amp;start=0&amp;max_results={n}</title>
  <id>http://arxiv.org/api/fake</id>
  <updated>2026-03-05T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{found}</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{n}</opensearch:itemsPerPage>
"""


def recorded_entries(directory: Path = FIXTURES) -> dict[str, str]:
    entries = {}
    for path in sorted(directory.glob("*.xml")):
        if path.name in ("generated_entry.xml", "malformed.xml"):
            continue
        for raw in _ENTRY.findall(path.read_text("utf-8")):
            m = _ENTRY_ID.search(raw)
            if m and "<title></title>" not in raw:
                entries[m.group(1)] = raw
    return entries


@dataclass
class Call:
    at: float
    path: str
    ids: list[str]
    max_results: int | None


@dataclass
class Scripted:
    status: int = 200
    body: bytes | None = None
    headers: dict = field(default_factory=dict)
    delay: float = 0.0


class FakeArxiv(LoopbackServer):
    def __init__(self, generate: str | None = None):
        self.entries = recorded_entries()
        self.template = (FIXTURES / "generated_entry.xml").read_text("utf-8")
        self.generate = re.compile(generate) if generate else None
        self.requests: list[Call] = []
        self.script: deque[Scripted] = deque()
        self.default_delay = 0.0
        self._lock = threading.Lock()
        self.started = threading.Event()  # set when a request arrives
        super().__init__(self._handler())

    @property
    def url(self) -> str:
        return f"{self.origin}/api/query"

    def answer_next(self, status: int = 200, fixture: str | None = None, body: bytes | None = None,
                    headers: dict | None = None, delay: float = 0.0, times: int = 1) -> None:
        if fixture is not None:
            body = (FIXTURES / fixture).read_bytes()
        for _ in range(times):
            self.script.append(Scripted(status, body, headers or {}, delay))

    def feed(self, ids: list[str]) -> bytes:
        found = []
        for i in ids:
            if i in self.entries:
                found.append(self.entries[i])
            elif self.generate is not None and self.generate.fullmatch(i):
                found.append(self.template.replace("{id}", i))
        head = FEED_HEAD.format(ids=",".join(ids), n=len(ids), found=len(found))
        return (head + "".join(found) + "</feed>\n").encode("utf-8")

    def _handler(self):
        fake = self

        class Answer(Handler):
            def do_GET(self):
                arrived = time.monotonic()
                parts = urlsplit(self.path)
                query = parse_qs(parts.query)
                ids = [i for i in ",".join(query.get("id_list", [])).split(",") if i]
                max_results = query.get("max_results", [None])[0]
                with fake._lock:
                    fake.requests.append(Call(arrived, parts.path, ids,
                                              int(max_results) if max_results else None))
                    scripted = fake.script.popleft() if fake.script else None
                fake.started.set()
                if scripted is None:
                    scripted = Scripted(delay=fake.default_delay)
                if scripted.delay:
                    time.sleep(scripted.delay)
                if parts.path != "/api/query":
                    status, body = 404, b"not found"
                elif scripted.body is not None:
                    status, body = scripted.status, scripted.body
                else:
                    status, body = scripted.status, fake.feed(ids)
                content_type = ("application/atom+xml; charset=utf-8" if body.startswith(b"<?xml")
                                else "text/html; charset=utf-8")
                self.send(status, content_type, body, scripted.headers)

        return Answer


if __name__ == "__main__":  # serve for manual runs: python -m tests.fake_arxiv
    with FakeArxiv(generate=r"\d{4}\.\d{5}") as fake:
        print(fake.url, flush=True)
        threading.Event().wait()
