# ruff: noqa: E501 - one case per line reads as the table it is
"""The hostile corpus: requests and files an attacker (or a broken tool) sends, with what each must
get. One list, run through the API on both stores (tests/test_hostile_corpus.py) and, for the
files, through ``papershelf import`` (tests/test_cli_commands.py).
"""

import base64
import json

BIG = 10**30


def cursor(values) -> str:
    return base64.urlsafe_b64encode(json.dumps(values).encode()).decode().rstrip("=")


def esc(text: str) -> bytes:
    """JSON text with lone surrogates written as escapes (what a hostile client can send)."""
    return text.encode("utf-8", "surrogatepass") if "\\u" not in text else text.encode()


# (id, method, url, raw JSON body or None, status, error code). ``{paper}``, ``{note}``,
# ``{highlight}``, ``{feed}`` are alice's ids; ``{bob_paper}`` is bob's (alice asks).
REQUESTS = [
    ("surrogate in a title", "POST", "/api/papers", b'{"title": "a\\ud800b"}', 422, "validation_error"),
    ("surrogate in a lookup id", "POST", "/api/papers/lookup", b'{"arxiv_ids": ["\\udfff"]}', 422, "validation_error"),
    ("surrogate in a note", "POST", "/api/papers/{paper}/notes", b'{"body": "\\ud83d"}', 422, "validation_error"),
    ("surrogate in a comment edit", "PATCH", "/api/highlights/{highlight}", b'{"comment": "x\\udc00"}', 422, "validation_error"),
    ("NUL in a title", "POST", "/api/papers", b'{"title": "a\\u0000b"}', 422, "validation_error"),
    ("NUL in a tag", "PATCH", "/api/papers/{paper}", b'{"tags": ["a\\u0000"]}', 422, "validation_error"),
    ("NUL in a note edit", "PATCH", "/api/notes/{note}", b'{"body": "\\u0000"}', 422, "validation_error"),
    ("NUL in a key formula", "PATCH", "/api/settings", b'{"citekey_format": "[auth]\\u0000"}', 422, "validation_error"),
    ("NUL in a feed filter", "POST", "/api/feeds", b'{"format": "bibtex", "tag": "\\u0000"}', 422, "validation_error"),
    ("NUL in an export tag", "GET", "/api/export?tag=a%00b", None, 422, "validation_error"),
    ("NUL in a search", "GET", "/api/papers?q=%00", None, 422, "validation_error"),
    ("NUL in a topic", "GET", "/api/papers?topic=x%00", None, 422, "validation_error"),
    ("cursor of the other sort", "GET", "/api/papers?sort=published&cursor=" + cursor([None, 5]), None, 422, "validation_error"),
    ("cursor of sort=saved with a date", "GET", "/api/papers?cursor=" + cursor(["2026-01-01", 5]), None, 422, "validation_error"),
    ("forged cursor id 10**30", "GET", "/api/papers?cursor=" + cursor([None, BIG]), None, 422, "validation_error"),
    ("forged cursor date", "GET", "/api/papers?sort=published&cursor=" + cursor(["9999-99-99", 1]), None, 422, "validation_error"),
    ("cursor of a float id", "GET", "/api/papers?cursor=" + cursor([None, 1.5]), None, 422, "validation_error"),
    ("cursor of garbage", "GET", "/api/papers?cursor=%%%%", None, 422, "validation_error"),
    ("cursor of nested JSON", "GET", "/api/papers?cursor=" + cursor([[[[None]]], 1]), None, 422, "validation_error"),
    ("highlight start 10**30", "POST", "/api/papers/{paper}/highlights", f'{{"exact": "x", "start": {BIG}, "end": {BIG + 1}}}'.encode(), 422, "validation_error"),
    ("highlight start negative", "POST", "/api/papers/{paper}/highlights", b'{"exact": "x", "start": -1, "end": 0}', 422, "validation_error"),
    ("authors_more 10**30", "POST", "/api/papers", f'{{"title": "x", "authors_more": {BIG}}}'.encode(), 422, "validation_error"),
    ("arxiv_version 1e400", "POST", "/api/papers", b'{"title": "x", "arxiv_version": 1e400}', 422, "validation_error"),
    ("NaN in a body", "POST", "/api/papers", b'{"title": "x", "authors_more": NaN}', 400, "bad_request"),
    ("JSON nested 100,000 deep", "POST", "/api/papers", b"[" * 100_000 + b"]" * 100_000, 400, "bad_request"),
    ("object nested in a title", "POST", "/api/papers", b'{"title": {"$gt": ""}}', 422, "validation_error"),
    ("10,000 tags", "PATCH", "/api/papers/{paper}", json.dumps({"tags": [f"t{i}" for i in range(10_000)]}).encode(), 422, "validation_error"),
    ("a 2 MB title", "POST", "/api/papers", json.dumps({"title": "x" * 2_000_000}).encode(), 413, "payload_too_large"),
    ("invalid UTF-8", "POST", "/api/papers", b'{"title": "\xff\xfe"}', 400, "bad_request"),
    ("paper id 10**30", "GET", f"/api/papers/{BIG}", None, 404, "not_found"),
    ("note id 2**63", "PATCH", f"/api/notes/{2**63}", b'{"body": "x"}', 404, "not_found"),
    ("paper id 0", "GET", "/api/papers/0", None, 404, "not_found"),
    ("another user's paper", "PATCH", "/api/papers/{bob_paper}", b'{"title": "mine now"}', 404, "not_found"),
    ("another user's paper's notes", "POST", "/api/papers/{bob_paper}/notes", b'{"body": "x"}', 404, "not_found"),
    ("another user's paper deleted", "DELETE", "/api/papers/{bob_paper}", None, 404, "not_found"),
    ("export of another user's ids", "GET", "/api/export?ids={bob_paper}", None, 200, None),
    ("ids 2**31", "GET", f"/api/export?ids={2**31}", None, 422, "validation_error"),
    ("a key with braces", "PATCH", "/api/papers/{paper}", b'{"citation_key": "a}b{"}', 422, "validation_error"),
    ("a key with a comma and space", "PATCH", "/api/papers/{paper}", b'{"citation_key": "a, b"}', 422, "validation_error"),
    ("a key formula of 10,000 fields", "PATCH", "/api/settings", json.dumps({"citekey_format": "[auth]" * 10_000}).encode(), 422, "validation_error"),
    ("a script tag as a colour", "PATCH", "/api/highlights/{highlight}", b'{"color": "<script>"}', 422, "validation_error"),
    ("unknown field", "POST", "/api/papers", b'{"title": "x", "user_id": 2}', 422, "validation_error"),
    ("a client_id that is no UUID", "POST", "/api/papers", b'{"title": "x", "client_id": "not-a-uuid"}', 422, "validation_error"),
    ("feed of an unknown format", "POST", "/api/feeds", b'{"format": "exe"}', 422, "validation_error"),
    ("lookup of 100,000 ids", "POST", "/api/papers/lookup", json.dumps({"arxiv_ids": ["2601.00001"] * 100_000}).encode(), 413, "payload_too_large"),
    ("lookup of 1,001 ids", "POST", "/api/papers/lookup", json.dumps({"arxiv_ids": ["2601.00001"] * 1_001}).encode(), 422, "validation_error"),
]


def backup(papers: list[dict]) -> bytes:
    return json.dumps({"format": "papershelf-backup", "version": 2, "papers": papers}).encode()


# Files refused whole: the API answers 422 and `papershelf import` one line and exit 1; nothing
# is written.
REFUSED_FILES = {
    "binary garbage": b"\x00\x01\x02\xff\xfe\xfd" * 100,
    "a PNG": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 64,
    "1000 nested braces": b"@misc{k, title = " + b"{" * 1000 + b"x" + b"}" * 1000 + b"}\n",
    "5000 nested braces": b"@misc{k, title = {" + b"{" * 5000 + b"x" + b"}" * 5000 + b"}}\n",
    "unclosed entry": b"@article{broken,\n  title = {Never closed\n",
    "truncated backup": b'{"format": "papershelf", "papers": [',
    "json that is no export": b'{"hello": "world"}',
    "csl-json list of numbers": b"[1, 2, 3]",
    "latin-1 junk claiming utf-16": b"\xff\xfe\x00\xd8",
    "JSON nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "backup of a future version": backup([])[:-1].replace(b'"version": 2', b'"version": 99') + b"}",
    "backup with a paper that is a number": b'{"format": "papershelf-backup", "version": 2, "papers": [5]}',
    "backup with unknown paper fields": backup([{"title": "A", "user_id": 2, "is_admin": True}]),
    "backup whose tags are not text": backup([{"title": "A", "tags": [{"$ne": 1}]}]),
    "NUL bytes in BibTeX": b"@misc{k, title = {A\x00B}}\n",
    "text with no entries": b"Dear reviewers, thank you for the comments.\n" * 50,
}


# Files imported in part: what is good is imported, and the report names every part left out
# (the API answers 200; `papershelf import` exits 0 and lists them). (file, what the report says)
PARTIAL_FILES = {
    "CSL author 5": (json.dumps([{"id": "a", "type": "article", "title": "Author five",
                                  "author": 5}]).encode(), "author"),
    "CSL date-parts 1e400": (b'[{"id": "b", "type": "article", "title": "Infinite date",'
                             b' "issued": {"date-parts": [[1e400]]}}]', "issued"),
    "backup created before year 1 UTC": (backup([{
        "title": "Before time", "created_at": "0001-01-01T00:00:00+14:00",
        "notes": [{"body": "n", "created_at": "0001-01-01T00:00:00+14:00"}],
        "published": "0000-01-01"}]), "published"),
    "backup highlight start 10**30": (backup([{
        "title": "Far highlight", "highlights": [
            {"field": "abstract", "exact": "x", "start": BIG, "end": BIG + 1}]}]), "highlight 0"),
    "backup notes of the wrong types": (backup([{
        "title": "Odd notes", "notes": [{"body": {"a": 1}}, {"body": ""}],
        "highlights": [{"field": 7, "exact": ["x"], "start": "0", "end": None}]}]), "note 0"),
    "BibTeX @string bomb": (b'@string{a0 = "xy"}\n' + b"".join(
        f"@string{{a{i} = a{i - 1} # a{i - 1}}}\n".encode() for i in range(1, 40))
        + b"@misc{bomb, title = {Macro bomb}, note = a39}\n", "note"),
    "BibTeX field of 5000 other fields": (b"@misc{many, title = {Many fields}, " + b", ".join(
        f"f{i} = {{v}}".encode() for i in range(5000)) + b"}\n", "extra"),
    "BibTeX key of 100,000 characters": (b"@misc{" + b"k" * 100_000 + b", title = {Long key}}\n",
                                         "key"),
    "BibTeX with one bad entry among good": (
        b"@misc{good, title = {A good one}}\n@misc{bad, title = " + b"{" * 300 + b"}\n"
        b"@misc{good2, title = {Another good one}}\n", "does not parse"),
    "BibTeX braces and % in a title": (b"@misc{pct, title = {100\\% {of} {\\{}braces\\}}}\n"
                                       b"@misc{notitle, author = {Nobody}}\n", "no title"),
}
