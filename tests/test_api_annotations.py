"""Notes and highlights: add, edit, delete, idempotent retries, validation."""

import uuid

import pytest


def test_note_lifecycle(client, alice, saved):
    pid = saved["id"]
    body = "# Idea\n\n<script>alert(1)</script> and `code` {braces} 100% \\cite{x}"
    r = client.post(f"/api/papers/{pid}/notes", json={"body": body}, headers=alice)
    assert r.status_code == 201
    note = r.json
    assert note["body"] == body and note["paper_id"] == pid
    r = client.patch(f"/api/notes/{note['id']}", json={"body": "edited"}, headers=alice)
    assert r.status_code == 200 and r.json["body"] == "edited"
    assert r.json["updated_at"] >= note["updated_at"]
    assert client.delete(f"/api/notes/{note['id']}", headers=alice).status_code == 204
    assert client.get(f"/api/papers/{pid}", headers=alice).json["notes"] == []


def test_note_retry_with_client_id_is_idempotent(client, alice, saved):
    cid = str(uuid.uuid4())
    a = client.post(f"/api/papers/{saved['id']}/notes", json={"body": "x", "client_id": cid},
                    headers=alice)
    b = client.post(f"/api/papers/{saved['id']}/notes", json={"body": "x", "client_id": cid},
                    headers=alice)
    assert (a.status_code, b.status_code) == (201, 200) and a.json["id"] == b.json["id"]
    assert len(client.get(f"/api/papers/{saved['id']}", headers=alice).json["notes"]) == 1


def test_highlight_lifecycle(client, alice, saved):
    pid = saved["id"]
    text = saved["abstract"]
    start = text.index("strong reasoning")
    body = {"field": "abstract", "exact": "strong reasoning", "start": start, "end": start + 16,
            "prefix": text[max(0, start - 32):start], "suffix": text[start + 16:start + 48],
            "color": "green", "comment": "key claim"}
    r = client.post(f"/api/papers/{pid}/highlights", json=body, headers=alice)
    assert r.status_code == 201
    h = r.json
    assert {k: h[k] for k in body} == body
    r = client.patch(f"/api/highlights/{h['id']}", json={"color": "pink", "comment": ""},
                     headers=alice)
    assert r.status_code == 200 and r.json["color"] == "pink" and r.json["comment"] == ""
    assert client.delete(f"/api/highlights/{h['id']}", headers=alice).status_code == 204


def test_highlight_default_colour_is_yellow(client, alice, saved):
    r = client.post(f"/api/papers/{saved['id']}/highlights",
                    json={"exact": "Large", "start": 0, "end": 5}, headers=alice)
    assert r.json["color"] == "yellow" and r.json["field"] == "abstract"


def test_highlight_offsets_are_utf16(client, alice):
    paper = client.post("/api/papers", json={"title": "t", "abstract": "a 🧪 b"}, headers=alice).json
    ok = client.post(f"/api/papers/{paper['id']}/highlights",
                     json={"exact": "🧪 b", "start": 2, "end": 6}, headers=alice)
    assert ok.status_code == 201
    bad = client.post(f"/api/papers/{paper['id']}/highlights",
                      json={"exact": "🧪 b", "start": 2, "end": 5}, headers=alice)
    assert bad.status_code == 422 and "end" in bad.json["error"]["fields"]


def test_highlights_come_back_in_text_order(client, alice, saved):
    pid = saved["id"]
    for exact, start in [("models", 15), ("Large", 0), ("language", 6)]:
        client.post(f"/api/papers/{pid}/highlights",
                    json={"exact": exact, "start": start, "end": start + len(exact)}, headers=alice)
    got = client.get(f"/api/papers/{pid}", headers=alice).json["highlights"]
    assert [h["exact"] for h in got] == ["Large", "language", "models"]


@pytest.mark.parametrize(("body", "field"), [
    ({"exact": "x", "start": 0}, "end"),
    ({"start": 0, "end": 1}, "exact"),
    ({"exact": "x", "start": 5, "end": 5}, "end"),
    ({"exact": "x", "start": -1, "end": 0}, "start"),
    ({"exact": "x", "start": 0, "end": 1, "color": "red"}, "color"),
    ({"exact": "x", "start": 0, "end": 1, "field": "notes"}, "field"),
    ({"exact": "x", "start": 0, "end": 1, "prefix": "p" * 65}, "prefix"),
    ({"exact": "x" * 2001, "start": 0, "end": 2001}, "exact"),
    ({"exact": "x", "start": 0, "end": 1, "client_id": "not-a-uuid"}, "client_id"),
    ({"exact": "x", "start": "zero", "end": 1}, "start"),
])
def test_bad_highlights_are_field_errors(client, alice, saved, body, field):
    r = client.post(f"/api/papers/{saved['id']}/highlights", json=body, headers=alice)
    assert r.status_code == 422
    assert field in r.json["error"]["fields"]


@pytest.mark.parametrize("body", [{"body": ""}, {"body": "   \n"}, {"body": None}, {},
                                  {"body": "x" * 100_001}])
def test_bad_notes_are_field_errors(client, alice, saved, body):
    r = client.post(f"/api/papers/{saved['id']}/notes", json=body, headers=alice)
    assert r.status_code == 422 and "body" in r.json["error"]["fields"]


def test_note_of_100000_chars_is_accepted(client, alice, saved):
    r = client.post(f"/api/papers/{saved['id']}/notes", json={"body": "é" * 100_000}, headers=alice)
    assert r.status_code == 201


def test_annotations_on_missing_paper_are_404(client, alice):
    assert client.post("/api/papers/999/notes", json={"body": "x"}, headers=alice).status_code == 404
    r = client.post("/api/papers/999/highlights", json={"exact": "x", "start": 0, "end": 1},
                    headers=alice)
    assert r.status_code == 404
