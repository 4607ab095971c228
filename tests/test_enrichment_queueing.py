"""When a paper enters the enrichment queue: saves, re-saves, arXiv id edits; and the team
server's one-enricher-per-host rule."""

QUEUED = {"ARXIV_API": "http://127.0.0.1:9/api/query", "ENRICH_IN_BACKGROUND": False}


def test_a_paper_saved_while_enrichment_was_off_is_queued_on_its_next_save(make_app, tmp_path):
    from papershelf.services import auth

    off = make_app()
    with off.extensions["papershelf_db"].connection_context():
        token = auth.create_token(auth.get_or_create_user("alice"))
    h = {"Authorization": f"Bearer {token}"}
    body = {"title": "T", "arxiv_id": "2603.01001"}
    assert off.test_client().post("/api/papers", json=body, headers=h).json["enrichment"]["state"] is None
    on = make_app(**QUEUED)
    r = on.test_client().post("/api/papers", json=body, headers=h)
    assert r.status_code == 200 and r.json["enrichment"]["state"] == "pending"


def test_changing_the_arxiv_id_requeues_the_paper(make_app):
    from papershelf.services import auth

    app = make_app(**QUEUED)
    with app.extensions["papershelf_db"].connection_context():
        token = auth.create_token(auth.get_or_create_user("alice"))
    c, h = app.test_client(), {"Authorization": f"Bearer {token}"}
    paper = c.post("/api/papers", json={"title": "No id yet"}, headers=h).json
    assert paper["enrichment"]["state"] is None
    r = c.patch(f"/api/papers/{paper['id']}", json={"arxiv_id": "arXiv:2603.01002v2"}, headers=h)
    assert r.json["arxiv_id"] == "2603.01002" and r.json["enrichment"]["state"] == "pending"
    r = c.patch(f"/api/papers/{paper['id']}", json={"title": "Renamed"}, headers=h)
    assert r.json["enrichment"]["state"] == "pending"


class _GunicornWorker:
    """What gunicorn hands post_worker_init: an object whose .wsgi is the loaded app."""

    def __init__(self, app):
        self.wsgi = app


def test_only_one_gunicorn_worker_of_a_store_enriches_and_another_takes_over(make_app):
    """Every worker starts the enricher; the store's lock (PostgreSQL: an advisory lock, which
    holds across hosts; SQLite: a file lock) lets one of them enrich. When it stops, another
    takes over."""
    from papershelf import gunicorn_conf

    first = make_app(ARXIV_API="http://127.0.0.1:9/api/query")
    second = make_app(ARXIV_API="http://127.0.0.1:9/api/query")
    workers = [first.extensions["papershelf_enricher"], second.extensions["papershelf_enricher"]]
    try:
        gunicorn_conf.post_worker_init(_GunicornWorker(first))
        gunicorn_conf.post_worker_init(_GunicornWorker(second))
        assert all(w.running for w in workers)
        assert [w.enriching for w in workers] == [True, False]
        workers[0].stop()
        assert workers[1].lock.acquire()  # what its standby loop does every few seconds
        assert workers[1].enriching and not workers[0].enriching
    finally:
        for w in workers:
            w.stop()


BIB = b"""@misc{jiang2026asymmetric,
  title = {Asymmetric Actor-Critic for Multi-turn LLM Agents},
  author = {Jiang, Shuli and others},
  year = {2026},
  eprint = {2603.29001},
  archivePrefix = {arXiv},
}
"""


def test_imported_papers_are_queued_for_enrichment(make_app):
    from papershelf.services import auth

    app = make_app(**QUEUED)
    with app.extensions["papershelf_db"].connection_context():
        token = auth.create_token(auth.get_or_create_user("alice"))
    c, h = app.test_client(), {"Authorization": f"Bearer {token}"}
    r = c.post("/api/import?format=bibtex", data=BIB, headers=h, content_type="application/x-bibtex")
    assert r.status_code == 200 and r.json["created"] == 1, r.json
    paper = c.get("/api/papers", headers=h).json["items"][0]
    assert paper["enrichment"]["state"] == "pending"


def test_a_backup_keeps_which_fields_arxiv_supplied(make_app):
    from papershelf.services import auth
    from papershelf.store.models import Paper

    app = make_app()
    with app.extensions["papershelf_db"].connection_context():
        token = auth.create_token(auth.get_or_create_user("alice"))
    c, h = app.test_client(), {"Authorization": f"Bearer {token}"}
    pid = c.post("/api/papers", json={"title": "T", "arxiv_id": "2603.29001", "authors": ["A B"]},
                 headers=h).json["id"]
    with app.extensions["papershelf_db"].connection_context():
        Paper.update(enriched_fields=["authors", "primary_category"]).where(Paper.id == pid).execute()
    backup = c.get("/api/export?format=json", headers=h).data
    c.delete(f"/api/papers/{pid}", headers=h)
    r = c.post("/api/import?format=json", data=backup, headers=h, content_type="application/json")
    assert r.json["created"] == 1, r.json
    restored = c.get("/api/papers", headers=h).json["items"][0]
    assert restored["enriched_fields"] == ["authors", "primary_category"]
    # A later page save keeps arXiv's author list.
    r = c.post("/api/papers", json={"title": "T", "arxiv_id": "2603.29001", "authors": ["Page Only"]},
               headers=h)
    assert r.json["authors"] == ["A B"]
