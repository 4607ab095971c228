"""The second reference for the throughput ratio: the least a durable, searchable save can do in
this stack, written directly (no validation, no merging, no citation key, no tags, no ORM).

Per request: check the bearer token's hash against the store, parse the JSON body, then in one
transaction INSERT the paper into a table with the same unique indexes as papershelf's and its
row into a full-text index (FTS5 with the same tokenizer / a tsvector with a GIN index), COMMIT,
and answer 201 with the id. Served by waitress with the same settings as `papershelf serve`.

    python bench/_floor_app.py PORT THREADS sqlite:///path.db|postgresql://… TOKEN
"""

import datetime
import hashlib
import json
import sys
import threading

import waitress
from flask import Flask, request

COLUMNS = ("user_id", "arxiv_id", "url", "citation_key", "title", "authors", "abstract",
           "published", "topics", "created_at")
UNIQUE = ("client_id", "arxiv_id", "doi", "url", "citation_key")


def schema(sqlite: bool) -> list[str]:
    key = "INTEGER PRIMARY KEY" if sqlite else "SERIAL PRIMARY KEY"
    out = [
        "CREATE TABLE IF NOT EXISTS floor_token (hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS floor_paper (id {key}, user_id INTEGER NOT NULL,"
        " client_id TEXT, arxiv_id TEXT, doi TEXT, url TEXT, citation_key TEXT NOT NULL,"
        " title TEXT NOT NULL, authors TEXT, abstract TEXT, published TEXT, topics TEXT,"
        " created_at TEXT)",
    ]
    out += [f"CREATE UNIQUE INDEX IF NOT EXISTS floor_paper_{c} ON floor_paper (user_id, {c})"
            for c in UNIQUE]
    if sqlite:
        out.append("CREATE VIRTUAL TABLE IF NOT EXISTS floor_search USING fts5("
                   "body, tokenize = 'porter unicode61 remove_diacritics 2')")
    else:
        out += ["CREATE TABLE IF NOT EXISTS floor_search (paper_id INTEGER PRIMARY KEY,"
                " document TSVECTOR NOT NULL)",
                "ALTER TABLE floor_search ALTER COLUMN document SET STORAGE MAIN",
                "CREATE INDEX IF NOT EXISTS floor_search_doc ON floor_search USING GIN (document)"]
    return out


def main():
    port, threads, url, token = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    sqlite = url.startswith("sqlite:")
    if sqlite:
        import sqlite3

        path = url[len("sqlite:///"):]

        def connect():
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=wal")
            conn.execute("PRAGMA synchronous=normal")  # as papershelf runs SQLite
            conn.execute("PRAGMA busy_timeout=30000")
            return conn
        p = "?"
    else:
        import psycopg

        def connect():
            return psycopg.connect(url)
        p = "%s"

    setup = connect()
    cur = setup.cursor()
    for statement in schema(sqlite):
        cur.execute(statement)
    cur.execute(f"DELETE FROM floor_token WHERE hash = {p}", (hash_(token),))
    cur.execute(f"INSERT INTO floor_token (hash, user_id) VALUES ({p}, 1)", (hash_(token),))
    if not sqlite:
        setup.commit()
    setup.close()

    insert = (f"INSERT INTO floor_paper ({', '.join(COLUMNS)}) VALUES "
              f"({', '.join([p] * len(COLUMNS))}) RETURNING id")
    index = ("INSERT INTO floor_search (rowid, body) VALUES (?, ?)" if sqlite else
             "INSERT INTO floor_search (paper_id, document) VALUES (%s, to_tsvector('english', %s))")
    local = threading.local()
    # SQLite has one writer: this process's writers queue on a lock, as papershelf's do.
    write_lock = threading.Lock() if sqlite else None
    app = Flask(__name__)

    def conn():
        c = getattr(local, "conn", None)
        if c is None:
            c = local.conn = connect()
        return c

    @app.post("/api/papers")
    def save():
        c = conn()
        cur = c.cursor()
        header = request.headers.get("Authorization", "")
        cur.execute(f"SELECT user_id FROM floor_token WHERE hash = {p}",
                    (hash_(header.partition(" ")[2]),))
        row = cur.fetchone()
        if not sqlite:
            c.commit()
        if row is None:
            return {"error": {"code": "unauthorized"}}, 401
        d = request.get_json()
        values = (row[0], d["arxiv_id"], "https://arxiv.org/abs/" + d["arxiv_id"],
                  d["arxiv_id"], d["title"], json.dumps(d["authors"]), d["abstract"],
                  d["published"], json.dumps(d["topics"]),
                  datetime.datetime.now(datetime.UTC).isoformat())
        body = "\n".join([d["title"], " ".join(d["authors"]), d["abstract"]])
        if sqlite:
            with write_lock:
                cur.execute("BEGIN IMMEDIATE")
                paper_id = cur.execute(insert, values).fetchone()[0]
                cur.execute(index, (paper_id, body))
                cur.execute("COMMIT")
        else:
            cur.execute(insert, values)
            paper_id = cur.fetchone()[0]
            cur.execute(index, (paper_id, body))
            c.commit()
        return {"id": paper_id, "title": d["title"]}, 201

    @app.get("/api/health")
    def health():
        return {"status": "ok"}

    waitress.serve(app, host="127.0.0.1", port=port, threads=threads, _quiet=True)


def hash_(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


if __name__ == "__main__":
    main()
