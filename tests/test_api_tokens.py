"""The tokens API on both stores: list (never a secret), create (the secret once, an optional
expiry), revoke; an expired or revoked token is refused, another user's token is not found."""

from datetime import timedelta

from tests.test_answers_match_openapi import check


def test_a_new_token_is_shown_once_and_works(client, alice):
    spec = client.get("/api/openapi.json").json
    made = check(spec, "POST", "/api/tokens",
                 client.post("/api/tokens", json={"name": "laptop", "expires_in_days": 30},
                             headers=alice))
    assert made["token"].startswith("ps_") and made["name"] == "laptop"
    assert made["state"] == "active" and made["expires_at"] and made["last_used_at"] is None
    mine = {"Authorization": f"Bearer {made['token']}"}
    assert client.get("/api/papers", headers=mine).status_code == 200
    listed = check(spec, "GET", "/api/tokens", client.get("/api/tokens", headers=alice))
    assert made["token"] not in str(listed)
    laptop = next(t for t in listed["items"] if t["id"] == made["id"])
    assert "token" not in laptop and laptop["last_used_at"] is not None  # used just now
    assert laptop["expires_at"] == made["expires_at"]


def test_a_revoked_token_is_refused(client, alice):
    made = client.post("/api/tokens", json={"name": "old"}, headers=alice).json
    assert made["expires_at"] is None
    mine = {"Authorization": f"Bearer {made['token']}"}
    assert client.delete(f"/api/tokens/{made['id']}", headers=alice).status_code == 204
    r = client.get("/api/papers", headers=mine)
    assert r.status_code == 401 and r.json["error"]["code"] == "unauthorized"
    states = {t["id"]: t["state"] for t in client.get("/api/tokens", headers=alice).json["items"]}
    assert states[made["id"]] == "revoked"


def test_an_expired_token_is_refused(app, client, alice):
    from papershelf.store.models import ApiToken, utcnow

    made = client.post("/api/tokens", json={"name": "short", "expires_in_days": 1},
                       headers=alice).json
    mine = {"Authorization": f"Bearer {made['token']}"}
    assert client.get("/api/papers", headers=mine).status_code == 200
    with app.extensions["papershelf_db"].connection_context():  # a day and a second later
        (ApiToken.update(expires_at=utcnow() - timedelta(seconds=1))
         .where(ApiToken.id == made["id"]).execute())
    assert client.get("/api/papers", headers=mine).status_code == 401
    states = {t["id"]: t["state"] for t in client.get("/api/tokens", headers=alice).json["items"]}
    assert states[made["id"]] == "expired"


def test_another_users_token_is_not_found(client, alice, bob):
    made = client.post("/api/tokens", json={"name": "a"}, headers=alice).json
    r = client.delete(f"/api/tokens/{made['id']}", headers=bob)
    assert r.status_code == 404 and r.json["error"]["code"] == "not_found"
    assert made["id"] not in [t["id"] for t in client.get("/api/tokens", headers=bob).json["items"]]
    assert client.get("/api/papers", headers={"Authorization": f"Bearer {made['token']}"}
                      ).status_code == 200


def test_bad_token_requests_are_field_errors(client, alice):
    for body in ({"expires_in_days": 0}, {"expires_in_days": 10**6}, {"name": "x" * 101},
                 {"secret": "mine"}, {"expires_in_days": "soon"}):
        r = client.post("/api/tokens", json=body, headers=alice)
        assert r.status_code == 422 and r.json["error"]["code"] == "validation_error", body
    assert len(client.get("/api/tokens", headers=alice).json["items"]) == 1
