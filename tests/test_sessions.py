"""Library-page sessions live in the store: signing out and revoking the token end them, a
copied cookie dies with them; the cookie is Secure behind TLS; the brake on wrong tokens is
shared by every process on the store and never refuses a valid token."""

import re

import pytest

ORIGIN = "http://localhost"


def sign_in(client, token, **kw):
    return client.post("/signin", data={"token": token}, headers={"Origin": ORIGIN}, **kw)


def cookie_of(response) -> str:
    m = re.search(r"papershelf_session=([^;]+)", response.headers.get("Set-Cookie", ""))
    assert m, response.headers
    return m[1]


@pytest.fixture
def token(app):
    from papershelf.services import auth

    with app.extensions["papershelf_db"].connection_context():
        return auth.create_token(auth.get_or_create_user("alice"), label="laptop")


def as_cookie(app, value):
    """A second browser holding a copy of the cookie."""
    c = app.test_client()
    c.set_cookie("papershelf_session", value, domain="localhost")
    return c


def test_sign_out_ends_the_session_for_every_copy_of_the_cookie(app, token):
    c = app.test_client()
    r = sign_in(c, token)
    assert r.status_code == 302
    stolen = cookie_of(r)
    copy = as_cookie(app, stolen)
    assert copy.get("/api/papers").status_code == 200
    assert c.post("/signout", headers={"Origin": ORIGIN}).status_code == 302
    r = copy.get("/api/papers")
    assert r.status_code == 401 and r.json["error"]["code"] == "unauthorized"
    assert copy.get("/").status_code == 302  # the library page sends it to sign in
    with app.extensions["papershelf_db"].connection_context():
        from papershelf.store.models import WebSession

        assert WebSession.select().count() == 0


def test_revoking_the_token_ends_its_sessions_and_only_its(app, token):
    from papershelf.services import auth

    with app.extensions["papershelf_db"].connection_context():
        other = auth.create_token(auth.get_or_create_user("alice"), label="desktop")
    first, second = app.test_client(), app.test_client()
    sign_in(first, token)
    sign_in(second, other)
    assert first.get("/api/papers").status_code == 200
    with app.extensions["papershelf_db"].connection_context():
        auth.revoke_token(auth.find_user("alice"), "laptop")
    assert first.get("/api/papers").status_code == 401
    assert second.get("/api/papers").status_code == 200


def test_an_expired_session_is_refused(app, token):
    from papershelf.store.models import WebSession

    c = app.test_client()
    sign_in(c, token)
    with app.extensions["papershelf_db"].connection_context():
        WebSession.update(expires_at=WebSession.created_at).execute()
    assert c.get("/api/papers").status_code == 401


def test_a_forged_cookie_value_is_refused(app, token):
    c = app.test_client()
    r = sign_in(c, token)
    value = cookie_of(r)
    forged = value[:-3] + ("AAA" if not value.endswith("AAA") else "BBB")
    assert as_cookie(app, forged).get("/api/papers").status_code == 401


def test_plain_http_cookie_is_not_secure_and_is_httponly_strict(app, token):
    r = sign_in(app.test_client(), token)
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" not in cookie


def test_wrong_tokens_are_braked_but_a_valid_token_still_works(make_app, token):
    app = make_app(AUTH_FAILURES_PER_MINUTE=5)
    c = app.test_client()
    codes = [c.get("/api/papers", headers={"Authorization": f"Bearer guess{i}"}).status_code
             for i in range(8)]
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}
    # Same address, a valid token: never refused by the brake.
    r = c.get("/api/papers", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    r = sign_in(c, token)
    assert r.status_code == 302
    r = c.post("/signin", data={"token": "wrong"}, headers={"Origin": ORIGIN})
    assert r.status_code == 429 and b"Too many failed attempts" in r.data


def test_the_brake_is_shared_by_two_processes_on_one_store(make_app):
    first = make_app(AUTH_FAILURES_PER_MINUTE=4)
    second = make_app(AUTH_FAILURES_PER_MINUTE=4)  # another server process on the same store
    for i in range(2):
        assert first.test_client().get(
            "/api/papers", headers={"Authorization": f"Bearer a{i}"}).status_code == 401
        assert second.test_client().get(
            "/api/papers", headers={"Authorization": f"Bearer b{i}"}).status_code == 401
    r = first.test_client().get("/api/papers", headers={"Authorization": "Bearer c"})
    assert r.status_code == 429 and r.headers["Retry-After"] == "60"
    # Another address is not braked.
    r = second.test_client().get("/api/papers", headers={"Authorization": "Bearer d"},
                                 environ_base={"REMOTE_ADDR": "127.0.0.2"})
    assert r.status_code == 401


def test_revoking_through_the_tokens_api_ends_that_tokens_sessions(app, token):
    browser = app.test_client()
    sign_in(browser, token)
    assert browser.get("/api/papers").status_code == 200
    script = app.test_client()
    bearer = {"Authorization": f"Bearer {token}"}
    other = script.post("/api/tokens", json={"name": "script"}, headers=bearer).json
    laptop = next(t for t in script.get("/api/tokens", headers=bearer).json["items"]
                  if t["name"] == "laptop")
    r = script.delete(f"/api/tokens/{laptop['id']}",
                      headers={"Authorization": f"Bearer {other['token']}"})
    assert r.status_code == 204
    assert browser.get("/api/papers").status_code == 401  # its session ended with it
    assert sign_in(app.test_client(), token).status_code == 401


def test_an_expired_token_ends_its_sessions(app, token):
    from papershelf.store.models import ApiToken

    c = app.test_client()
    sign_in(c, token)
    assert c.get("/api/papers").status_code == 200
    with app.extensions["papershelf_db"].connection_context():
        ApiToken.update(expires_at=ApiToken.created_at).where(ApiToken.label == "laptop").execute()
    assert c.get("/api/papers").status_code == 401
