"""Who may talk to the API: allowed Host names (DNS rebinding), CORS for extension origins only,
bearer tokens or the library page's session, and a brake on guessing tokens."""

import re

from flask import current_app, g, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_cors import CORS

from papershelf.http.errors import Forbidden, RateLimited, Unauthorized
from papershelf.services import auth, sessions

PUBLIC_ENDPOINTS = {"api_health.health", "api_docs.openapi", "static"}
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def init_security(app) -> None:
    allowed = {h.lower() for h in app.config["ALLOWED_HOSTS"]}
    origins = [re.compile(o) if o.startswith("^") else o for o in app.config["CORS_ORIGINS"]]
    origins = [o for o in origins if o != "*"]  # never every origin
    CORS(app, resources={r"/api/*": {"origins": origins}},
         allow_headers=["Authorization", "Content-Type"],
         methods=["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
         expose_headers=["Content-Disposition"], max_age=600, supports_credentials=False)
    app.session_interface = _SessionCookie()

    @app.before_request
    def check_host():
        if _hostname(request.host) not in allowed:
            raise Forbidden("this Host is not allowed (set PAPERSHELF_ALLOWED_HOSTS to add one)")

    @app.before_request
    def authenticate():
        g.user = None
        if request.method == "OPTIONS" or request.endpoint in PUBLIC_ENDPOINTS:
            return
        if not request.path.startswith("/api/"):
            return
        header = request.headers.get("Authorization", "")
        if header:
            scheme, _, token = header.partition(" ")
            user = auth.user_for_token(token.strip()) if scheme.lower() == "bearer" else None
            if user is None:
                refuse_wrong_token()
                raise Unauthorized("the API token is missing, wrong or revoked",
                                   headers={"WWW-Authenticate": "Bearer"})
            g.user = user
            return
        user = session_user()
        if user is None:
            raise Unauthorized(headers={"WWW-Authenticate": "Bearer"})
        if request.method not in SAFE_METHODS:
            check_same_origin()
        g.user = user


def refuse_wrong_token() -> None:
    """A wrong token from this address: counted, and once the address has sent too many in the
    last minute or two, answered 429 (a valid token never comes here, so it is never refused)."""
    address = request.remote_addr or "?"
    if sessions.braked(address, current_app.config["AUTH_FAILURES_PER_MINUTE"]):
        raise RateLimited(headers={"Retry-After": "60"})
    sessions.record_failure(address)


class _SessionCookie(SecureCookieSessionInterface):
    """Flask's signed cookie, holding only the session's secret (the session itself is a row in
    the store), marked ``Secure`` whenever the request came over HTTPS (behind a TLS proxy with
    ``PAPERSHELF_PROXY_FIX``, from its forwarded scheme)."""

    def get_cookie_secure(self, app):
        return bool(super().get_cookie_secure(app) or request.is_secure)


def session_user():
    """The library page's signed-in user, from the session row its cookie names: signing out or
    revoking the token it signed in with ends it."""
    return sessions.user_for_session(session.get("sid"))


def check_same_origin() -> None:
    """State changes made with the session cookie must come from our own page."""
    origin = request.headers.get("Origin")
    expected = f"{request.scheme}://{request.host}"
    if origin != expected:
        raise Forbidden("cross-origin request refused")
