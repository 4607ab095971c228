"""The published version of saved preprints, against fake catalogues on loopback: found, stored
with its evidence, cited by the exports, the user's choice kept, bad answers retried later."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import timedelta

import pytest

from papershelf.services import published
from papershelf.store.models import Paper, utcnow
from tests._require import require_or_skip
from tests.fake_catalogues import FakeCatalogues

PAPERS = {
    "transformer": {"arxiv_id": "1706.03762", "title": "Attention Is All You Need",
                    "authors": ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit",
                                "Llion Jones", "Aidan N. Gomez", "Lukasz Kaiser", "Illia Polosukhin"],
                    "published": "2017-06-12"},
    "resnet": {"arxiv_id": "1512.03385", "title": "Deep Residual Learning for Image Recognition",
               "authors": ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"],
               "published": "2015-12-10"},
    "adam": {"arxiv_id": "1412.6980", "title": "Adam: A Method for Stochastic Optimization",
             "authors": ["Diederik P. Kingma", "Jimmy Ba"], "published": "2014-12-22"},
    "bert": {"arxiv_id": "1810.04805",
             "title": "BERT: Pre-training of Deep Bidirectional Transformers for Language "
                      "Understanding",
             "authors": ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"],
             "published": "2018-10-11"},
    "ppo": {"arxiv_id": "1707.06347", "title": "Proximal Policy Optimization Algorithms",
            "authors": ["John Schulman", "Filip Wolski", "Prafulla Dhariwal", "Alec Radford",
                        "Oleg Klimov"], "published": "2017-07-20"},
    "node": {"arxiv_id": "1806.07366", "title": "Neural Ordinary Differential Equations",
             "authors": ["Ricky T. Q. Chen", "Yulia Rubanova", "Jesse Bettencourt",
                         "David Duvenaud"], "published": "2018-06-19"},
    "ligo": {"arxiv_id": "1602.03837",
             "title": "Observation of Gravitational Waves from a Binary Black Hole Merger",
             "authors": ["LIGO Scientific Collaboration", "B. P. Abbott", "R. Abbott"],
             "published": "2016-02-11", "doi": "10.1103/PhysRevLett.116.061102",
             "journal_ref": "Phys. Rev. Lett. 116, 061102 (2016)"},
    "book": {"arxiv_id": "2301.09999", "title": "Deep Learning",
             "authors": ["Ian Goodfellow", "Yoshua Bengio", "Aaron Courville"],
             "published": "2016-11-18"},
}


@pytest.fixture
def fake():
    with FakeCatalogues() as fake:
        yield fake


@pytest.fixture
def cfg(app, fake):
    # arXiv "on" so that the catalogues are (nothing here calls it: papers were saved with it off)
    return {**app.config, "ARXIV_API": "http://127.0.0.1:9/api/query", **fake.settings()}


@pytest.fixture
def save(client, alice):
    def save(*names):
        ids = {}
        for name in names:
            r = client.post("/api/papers", json=PAPERS[name], headers=alice)
            assert r.status_code == 201, r.json
            ids[name] = r.json["id"]
        return ids
    return save


def resolve(app, cfg, everything=False):
    with app.extensions["papershelf_db"].connection_context():
        published.queue_all(everything=everything)
        return published.run_due(cfg)


def _due_now(app):
    with app.extensions["papershelf_db"].connection_context():
        Paper.update(resolve_due=utcnow() - timedelta(seconds=1)).where(
            Paper.resolve == "pending").execute()


def paper(client, alice, paper_id):
    return client.get(f"/api/papers/{paper_id}", headers=alice).json


def test_versions_are_found_with_the_venues_own_record(app, client, alice, cfg, fake, save):
    ids = save(*PAPERS)
    results = resolve(app, cfg)
    assert sum(r.papers for r in results) == len(PAPERS)
    got = {name: paper(client, alice, pid) for name, pid in ids.items()}

    t = got["transformer"]["published_version"]
    assert t["entry_type"] == "inproceedings" and t["year"] == 2017
    assert t["booktitle"].startswith("Advances in Neural Information Processing Systems 30")
    assert t["venue"] == "NeurIPS 2017" and t["dblp"] == "conf/nips/VaswaniSPUJGKP17"
    assert t["source"] == "semantic_scholar" and "links it" in t["evidence"]
    assert got["transformer"]["cite"] == "published"
    # Semantic Scholar says 2015 for ResNet: the year is CVPR's record's
    r = got["resnet"]["published_version"]
    assert (r["year"], r["doi"], r["venue"]) == (2016, "10.1109/cvpr.2016.90", "CVPR 2016")
    # Adam: Semantic Scholar's DBLP key is CoRR's; DBLP's search finds ICLR 2015
    a = got["adam"]["published_version"]
    assert (a["year"], a["venue"], a["source"]) == (2015, "ICLR 2015", "dblp")
    assert got["bert"]["published_version"]["pages"].replace("\u2013", "-") == "4171-4186"
    # the Neural ODE paper is on DBLP's second page, after eleven look-alikes
    n = got["node"]["published_version"]
    assert n["dblp"] == "conf/nips/ChenRBD18" and n["year"] == 2018
    # arXiv's own DOI: Crossref's record of the journal
    g = got["ligo"]["published_version"]
    assert (g["journal"], g["volume"], g["number"], g["pages"], g["source"]) == (
        "Physical Review Letters", "116", "6", "061102", "arxiv")
    # never published; and the Goodfellow book is not Nature's nor KDD's "Deep learning"
    for name in ("ppo", "book"):
        assert got[name]["published_version"] is None and got[name]["cite"] == "preprint"
    # one Semantic Scholar call for the whole batch; a few calls per paper
    assert fake.count("s2") == 1
    assert len(fake.calls) <= 4 * len(PAPERS)


def test_the_exports_cite_the_version_and_keep_the_key_and_eprint(app, client, alice, cfg, save):
    ids = save("transformer", "ppo")
    before = client.get("/api/export", headers=alice).get_data(as_text=True)
    resolve(app, cfg)
    bib = client.get("/api/export", headers=alice).get_data(as_text=True)
    key = paper(client, alice, ids["transformer"])["citation_key"]
    assert f"@inproceedings{{{key}," in bib and f"@misc{{{key}," in before
    entry = bib.split(f"@inproceedings{{{key},")[1].split("\n}\n")[0]
    assert "booktitle = {Advances in Neural Information Processing Systems 30" in entry
    assert "year = {2017}" in entry and "pages = {5998--6008}" in entry
    assert "eprint = {1706.03762}" in entry and "archivePrefix = {arXiv}" in entry
    assert "@misc{" in bib  # PPO stays a preprint
    preprint = client.get("/api/export?version=preprint", headers=alice).get_data(as_text=True)
    assert "@inproceedings" not in preprint
    short = client.get("/api/export?venue=short", headers=alice).get_data(as_text=True)
    assert "booktitle = {NeurIPS 2017}" in short
    csl = client.get("/api/export?format=csljson", headers=alice).json
    item = next(i for i in csl if i["id"] == key)
    assert item["type"] == "paper-conference" and "Neural Information" in item["container-title"]
    ris = client.get("/api/export?format=ris", headers=alice).get_data(as_text=True)
    assert "TY  - CPAPER" in ris
    bad = client.get("/api/export?version=journal", headers=alice)
    assert bad.status_code == 422 and "version" in bad.json["error"]["fields"]


def test_a_feed_takes_the_citing_options(app, client, alice, cfg, save):
    save("transformer")
    resolve(app, cfg)
    url = client.post("/api/feeds", json={}, headers=alice).json["path"]
    assert "@inproceedings" in client.get(url).get_data(as_text=True)
    assert "@inproceedings" not in client.get(url + "?version=preprint").get_data(as_text=True)
    assert "{NeurIPS 2017}" in client.get(url + "?venue=short").get_data(as_text=True)
    assert client.get(url + "?venue=tiny").status_code == 422


def test_cite_preprint_sticks_across_checks(app, client, alice, cfg, save):
    pid = save("transformer")["transformer"]
    resolve(app, cfg)
    r = client.patch(f"/api/papers/{pid}", json={"cite": "preprint"}, headers=alice)
    assert r.status_code == 200 and r.json["cite"] == "preprint"
    resolve(app, cfg, everything=True)
    again = paper(client, alice, pid)
    assert again["cite"] == "preprint" and again["published_version"] is not None
    assert "@inproceedings" not in client.get("/api/export", headers=alice).get_data(as_text=True)
    back = client.patch(f"/api/papers/{pid}", json={"cite": "published"}, headers=alice)
    assert back.json["cite"] == "published"


def test_a_rejected_match_is_not_offered_again(app, client, alice, cfg, save):
    pid = save("transformer")["transformer"]
    resolve(app, cfg)
    r = client.patch(f"/api/papers/{pid}", json={"published_version": None}, headers=alice)
    assert r.status_code == 200 and r.json["published_version"] is None
    assert r.json["cite"] == "preprint"
    resolve(app, cfg, everything=True)
    assert paper(client, alice, pid)["published_version"] is None


@pytest.mark.parametrize("body,field", [
    ({"cite": "published"}, "cite"),  # nothing found yet
    ({"cite": "journal"}, "cite"),
    ({"published_version": {"venue": "NeurIPS"}}, "published_version"),
])
def test_bad_choices_are_refused_and_change_nothing(client, alice, save, body, field):
    pid = save("ppo")["ppo"]
    before = paper(client, alice, pid)
    r = client.patch(f"/api/papers/{pid}", json=body, headers=alice)
    assert r.status_code == 422 and field in r.json["error"]["fields"]
    assert paper(client, alice, pid) == before


@pytest.mark.parametrize("service", ["s2", "dblp", "crossref"])
@pytest.mark.parametrize("kind", ["html", "429", "500", "timeout", "truncated"])
def test_bad_answers_leave_the_paper_as_it_was_and_retry_later(app, client, alice, cfg, fake,
                                                               save, service, kind):
    name = {"s2": "transformer", "dblp": "transformer", "crossref": "ligo"}[service]
    pid = save(name)[name]
    fake.delay = 1.5  # longer than the fakes' timeout
    fake.fail_next(service, kind)
    before = paper(client, alice, pid)
    results = resolve(app, cfg)
    assert results[0].retrying == 1
    after = paper(client, alice, pid)
    assert after["published_version"] is None and after == before
    with app.extensions["papershelf_db"].connection_context():
        row = Paper.get_by_id(pid)
        assert row.resolve == "pending" and row.resolve_due > utcnow()
        assert row.resolve_attempts == 1 and row.resolve_reason
        if kind == "429":
            assert row.resolve_due >= utcnow() + timedelta(seconds=6)  # Retry-After: 7
    _due_now(app)
    with app.extensions["papershelf_db"].connection_context():
        published.run_due(cfg)
    assert paper(client, alice, pid)["published_version"] is not None


def test_a_paper_waits_for_arxiv_before_its_check(app, client, alice, cfg, save):
    pid = save("transformer")["transformer"]
    with app.extensions["papershelf_db"].connection_context():
        published.queue_all()
        Paper.update(enrichment="pending").where(Paper.id == pid).execute()
        assert published.run_batch(cfg) is None
        Paper.update(enrichment="done").where(Paper.id == pid).execute()
        assert published.run_batch(cfg).found == 1


def test_nothing_is_asked_when_the_catalogues_are_off(app, client, alice, cfg, fake, save):
    save("transformer")
    off = {**cfg, "S2_API": "off", "DBLP_API": "off", "CROSSREF_API": "off"}
    assert resolve(app, off) == []
    assert fake.calls == []
    arxiv_off = {**cfg, "ARXIV_API": "off"}
    assert resolve(app, arxiv_off) == []
    assert fake.calls == []


def test_contact_email_and_key_are_sent(app, cfg, fake, save):
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    seen = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            seen.append({k.lower(): v for k, v in self.headers.items()})
            self.rfile.read(int(self.headers["Content-Length"]))
            body = b"[null]"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        save("ppo")
        url = f"http://127.0.0.1:{server.server_address[1]}"
        resolve(app, {**cfg, "S2_API": url, "S2_API_KEY": "k3y", "CONTACT_EMAIL": "me@lab.org",
                      "DBLP_API": "off", "CROSSREF_API": "off"})
    finally:
        server.shutdown()
        server.server_close()
    assert seen and seen[0]["x-api-key"] == "k3y"
    assert "mailto:me@lab.org" in seen[0]["user-agent"]


def test_the_exported_versions_compile_with_bibtex(app, client, alice, cfg, save, tmp_path):
    if not (shutil.which("bibtex") and shutil.which("pdflatex")):
        require_or_skip("latex", "bibtex and pdflatex are not installed")
    save(*PAPERS)
    resolve(app, cfg)
    for options in ("", "?venue=short"):
        bib = client.get("/api/export" + options, headers=alice).get_data(as_text=True)
        (tmp_path / "refs.bib").write_text(bib, encoding="utf-8")
        (tmp_path / "doc.tex").write_text(
            "\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage{hyperref}"
            "\\begin{document}\\nocite{*}\\bibliographystyle{plain}\\bibliography{refs}"
            "\\end{document}\n")
        run = [["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
               ["bibtex", "doc"],
               ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]]
        for args in run:
            done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True,
                                  errors="replace", timeout=120)
            assert done.returncode == 0, done.stdout[-2000:]
        log = (tmp_path / "doc.blg").read_text(errors="replace")
        assert "error message" not in log, log
        bbl = (tmp_path / "doc.bbl").read_text(errors="replace")
        assert len(re.findall(r"\\bibitem", bbl)) == len(PAPERS)
        assert "Advances in Neural Information Processing Systems 30" in bbl or "NeurIPS 2017" in bbl


def test_the_background_worker_checks_a_saved_preprint_after_arxiv(make_app, fake, alice_of):
    import time

    from tests.fake_arxiv import FakeArxiv

    with FakeArxiv() as arxiv:  # it does not know 1706.03762: enrichment fails, the check goes on
        app = make_app(ARXIV_API=arxiv.url, ARXIV_MIN_INTERVAL=0.0, ENRICH_SETTLE=0.05,
                       ENRICH_POLL=0.5, **fake.settings())
        client, alice = app.test_client(), alice_of(app)
        app.extensions["papershelf_start_background"]()
        try:
            pid = client.post("/api/papers", json=PAPERS["transformer"], headers=alice).json["id"]
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                got = paper(client, alice, pid)
                if got["published_version"]:
                    break
                time.sleep(0.2)
            assert got["published_version"]["venue"] == "NeurIPS 2017"
            assert got["enrichment"]["state"] == "failed" and len(arxiv.requests) == 1
        finally:
            for name in ("papershelf_enricher", "papershelf_resolver", "papershelf_entries"):
                app.extensions[name].stop()


@pytest.fixture
def alice_of():
    from papershelf.services import auth

    def make(app):
        with app.extensions["papershelf_db"].connection_context():
            token = auth.create_token(auth.get_or_create_user("alice"))
        return {"Authorization": f"Bearer {token}"}
    return make


def test_a_backup_restores_the_version_and_the_choice(app, client, alice, bob, cfg, save):
    ids = save("transformer", "resnet")
    resolve(app, cfg)
    client.patch(f"/api/papers/{ids['resnet']}", json={"cite": "preprint"}, headers=alice)
    backup = client.get("/api/export?format=json", headers=alice).get_data()
    r = client.post("/api/import?format=json", data=backup, headers=bob)
    assert r.status_code == 200 and r.json["created"] == 2
    mine = {p["arxiv_id"]: p for p in client.get("/api/papers", headers=bob).json["items"]}
    assert mine["1706.03762"]["published_version"]["venue"] == "NeurIPS 2017"
    assert mine["1706.03762"]["cite"] == "published"
    assert mine["1512.03385"]["cite"] == "preprint"
    assert mine["1512.03385"]["published_version"]["year"] == 2016


def test_the_paper_page_shows_where_it_was_published_with_the_switch(app, client, alice, cfg,
                                                                    save):
    from tests.test_web import sign_in

    ids = save("transformer", "ppo")
    resolve(app, cfg)
    with app.extensions["papershelf_db"].connection_context():  # a hostile venue name
        row = Paper.get_by_id(ids["transformer"])
        row.published_version = {**row.published_version, "venue": "<script>x</script>NeurIPS"}
        row.save()
    sign_in(client, alice)
    html = client.get(f"/papers/{ids['transformer']}").get_data(as_text=True)
    block = html.split('id="published-version"')[1].split("</div>")[0]
    assert "Published in" in block and "(Semantic Scholar)" in block
    assert "&lt;script&gt;x&lt;/script&gt;NeurIPS" in block and "<script>x" not in block
    assert 'href="https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17"' in block
    assert 'data-action="cite" data-cite="preprint"' in block and "reject-version" in block
    assert 'id="published-version"' not in client.get(f"/papers/{ids['ppo']}").get_data(
        as_text=True)


def test_migration_12_runs_twice_and_queues_the_arxiv_papers(app, client, alice, save):
    from papershelf.store import migrations
    from papershelf.store.db import db

    ids = save("transformer")
    client.post("/api/papers", json={"title": "A book", "doi": "10.1000/xyz"}, headers=alice)
    with app.extensions["papershelf_db"].connection_context():
        for _ in range(2):
            with db.atomic():
                migrations.MIGRATIONS[12]()
        rows = {p.arxiv_id: p.resolve for p in Paper.select()}
    assert rows == {"1706.03762": "pending", None: None}
    assert ids


def test_two_workers_at_once_check_each_paper_once(app, client, alice, cfg, fake, save):
    import threading

    save(*PAPERS)
    with app.extensions["papershelf_db"].connection_context():
        published.queue_all()
    results, errors = [], []

    def work():
        try:
            with app.extensions["papershelf_db"].connection_context():
                while (result := published.run_batch(cfg, limit=2)) is not None:
                    results.append(result)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert sum(r.papers for r in results) == len(PAPERS)
    assert sum(r.found for r in results) == 6
    assert fake.count("s2") == len(results)


# arXiv's journal reference with no DOI: real references as arXiv gives them (the catalogues'
# records in tests/fixtures/catalogues/corpus.json), and one made-up preprint that Semantic
# Scholar knows only as a preprint, with a workshop's and a conference's version on DBLP
WITH_A_REFERENCE = {
    "cusp": {"arxiv_id": "cond-mat/0102536",
             "title": "Impact of Electron-Electron Cusp on Configuration Interaction Energies",
             "authors": ["David Prendergast", "M. Nolan", "Claudia Filippi", "Stephen Fahy",
                         "J. C. Greer"], "published": "2001-02-28",
             "journal_ref": "J. Chem. Phys. 115, 1626 (2001)"},
    "parsing": {"arxiv_id": "2101.11408", "title": "Number Parsing at a Gigabyte per Second",
                "authors": ["Daniel Lemire"], "published": "2021-01-11",
                "journal_ref": "Software: Practice and Experience 51 (8), 2021"},
    "speech": {"arxiv_id": "1905.00001", "title": "Sparse Attention Lookups for Streaming Speech",
               "authors": ["Mira Okafor", "Tomas Lindqvist"], "published": "2019-05-01",
               "journal_ref": "ICML 2020"},
    # the reference does not make a look-alike the version: Nature's "Deep learning" is
    # LeCun's, not Goodfellow's book
    "book": {**PAPERS["book"], "journal_ref": "Nature 521, 436-444 (2015)"},
}


@pytest.mark.parametrize("name,expected,dblp_calls", [
    ("cusp", {"entry_type": "article", "journal": "The Journal of Chemical Physics",
              "volume": "115", "number": "4", "pages": "1626-1634", "year": 2001,
              "doi": "10.1063/1.1383585", "source": "crossref"}, 0),
    ("parsing", {"entry_type": "article", "journal": "Software: Practice and Experience",
                 "volume": "51", "number": "8", "pages": "1700-1727", "year": 2021,
                 "doi": "10.1002/spe.2984", "source": "crossref"}, 0),
    ("speech", {"entry_type": "inproceedings", "dblp": "conf/lookalike/OkaforL20",
                "year": 2020, "pages": "7001\u20137011", "source": "dblp"}, 2),
    ("book", None, None),
])
def test_a_journal_reference_without_a_doi_is_searched_with(app, client, alice, cfg, fake,
                                                             name, expected, dblp_calls):
    r = client.post("/api/papers", json=WITH_A_REFERENCE[name], headers=alice)
    assert r.status_code == 201, r.json
    results = resolve(app, cfg)
    version = paper(client, alice, r.json["id"])["published_version"]
    if expected is None:
        assert version is None and results[0].missing == 1
        return
    assert {k: version[k] for k in expected} == expected
    if expected["source"] == "crossref":
        assert "journal reference" in version["evidence"]
    assert fake.count("dblp") == dblp_calls  # a journal's reference goes to Crossref first


def test_without_its_reference_a_preprint_only_paper_is_not_searched(app, client, alice, cfg,
                                                                    fake):
    bare = {k: v for k, v in WITH_A_REFERENCE["speech"].items() if k != "journal_ref"}
    pid = client.post("/api/papers", json=bare, headers=alice).json["id"]
    resolve(app, cfg)
    assert paper(client, alice, pid)["published_version"] is None
    assert fake.count("dblp") == fake.count("crossref") == 0 and fake.count("s2") == 1
    with app.extensions["papershelf_db"].connection_context():
        assert "preprint only" in Paper.get_by_id(pid).resolve_reason


def test_a_backup_keeps_a_rejected_match_and_a_choice_made_before_any_version(
        app, client, alice, bob, cfg, save):
    ids = save("transformer", "bert")
    # BERT: the preprint is to be cited, said before any version was found
    r = client.patch(f"/api/papers/{ids['bert']}", json={"cite": "preprint"}, headers=alice)
    assert r.status_code == 200
    resolve(app, cfg)
    client.patch(f"/api/papers/{ids['transformer']}", json={"published_version": None},
                 headers=alice)
    backup = client.get("/api/export?format=json", headers=alice).get_data(as_text=True)
    assert '"version": 3' in backup
    r = client.post("/api/import?format=json", data=backup.encode(), headers=bob)
    assert r.status_code == 200 and r.json["created"] == 2, r.json
    resolve(app, cfg, everything=True)  # bob's papers are checked again
    mine = {p["arxiv_id"]: p for p in client.get("/api/papers", headers=bob).json["items"]}
    assert mine["1706.03762"]["published_version"] is None  # rejected: not offered again
    assert mine["1810.04805"]["published_version"]["venue"].startswith("NAACL")
    assert mine["1810.04805"]["cite"] == "preprint"
    exported = client.get("/api/export", headers=bob).get_data(as_text=True)
    assert "@inproceedings" not in exported
    # and the backup of the restored library says the same as the first
    again = client.get("/api/export?format=json", headers=bob).get_data(as_text=True)
    for text in (backup, again):
        assert text.count('"cite_choice": "preprint"') == 1
        assert '"published_rejected": ["dblp:conf/nips/VaswaniSPUJGKP17"]' in text


def test_a_version_2_backup_still_restores_its_version_and_choice(app, client, alice, bob, cfg,
                                                                  save):
    import json

    ids = save("resnet")
    resolve(app, cfg)
    client.patch(f"/api/papers/{ids['resnet']}", json={"cite": "preprint"}, headers=alice)
    data = json.loads(client.get("/api/export?format=json", headers=alice).get_data())
    data["version"] = 2
    for record in data["papers"]:
        del record["published_rejected"], record["cite_choice"]
    r = client.post("/api/import?format=json", data=json.dumps(data).encode(), headers=bob)
    assert r.status_code == 200 and r.json["created"] == 1, r.json
    restored = client.get("/api/papers", headers=bob).json["items"][0]
    assert restored["cite"] == "preprint" and restored["published_version"]["year"] == 2016


@pytest.mark.parametrize("field,value", [
    ("published_rejected", "dblp:x"), ("published_rejected", [1]), ("cite_choice", "journal")])
def test_a_backup_with_bad_choices_is_refused_and_nothing_is_written(client, bob, field, value):
    import json

    record = {"title": "A paper", "arxiv_id": "1706.03762", field: value}
    text = json.dumps({"format": "papershelf-backup", "version": 3, "papers": [record]})
    r = client.post("/api/import?format=json", data=text.encode(), headers=bob)
    assert r.status_code == 422 and field in r.json["error"]["message"]
    assert client.get("/api/papers", headers=bob).json["items"] == []
