"""Who may talk to the API: allowed Host names (DNS rebinding), CORS for extension origins only,
bearer tokens or the library page's session, and a brake on guessing tokens."""

import re
import threading
import time
from collections import defaultdict, deque

from flask import current_app, g, request, session
from flask_cors import CORS

from papershelf.http.errors import Forbidden, RateLimited, Unauthorized
from papershelf.services import auth

PUBLIC_ENDPOINTS = {"api_health.health", "api_docs.openapi", "static"}
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class FailureBrake:
    """Counts failed authentications per client address in a sliding minute."""

    def __init__(self):
        self._lock = threading.Lock()
        self._events = defaultdict(deque)

    def blocked(self, addr: str, limit: int) -> bool:
        now = time.monotonic()
        with self._lock:
            q = self._events[addr]
            while q and now - q[0] > 60:
                q.popleft()
            return len(q) >= limit

    def record(self, addr: str) -> None:
        with self._lock:
            self._events[addr].append(time.monotonic())


def init_security(app) -> None:
    allowed = {h.lower() for h in app.config["ALLOWED_HOSTS"]}
    origins = [re.compile(o) if o.startswith("^") else o for o in app.config["CORS_ORIGINS"]]
    origins = [o for o in origins if o != "*"]  # never every origin
    CORS(app, resources={r"/api/*": {"origins": origins}},
         allow_headers=["Authorization", "Content-Type"],
         methods=["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
         expose_headers=["Content-Disposition"], max_age=600, supports_credentials=False)
    brake = FailureBrake()
    app.extensions["papershelf_brake"] = brake

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
        addr = request.remote_addr or "?"
        limit = current_app.config["AUTH_FAILURES_PER_MINUTE"]
        header = request.headers.get("Authorization", "")
        if header:
            scheme, _, token = header.partition(" ")
            if brake.blocked(addr, limit):
                raise RateLimited(headers={"Retry-After": "60"})
            user = auth.user_for_token(token.strip()) if scheme.lower() == "bearer" else None
            if user is None:
                brake.record(addr)
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


def session_user():
    """The library page's signed-in user: the session holds the user id and its token's hash,
    so revoking the token signs the page out."""
    uid, token_hash = session.get("uid"), session.get("tok")
    if not uid or not token_hash or not isinstance(token_hash, str):
        return None
    return auth.user_for_token_hash(token_hash, user_id=uid)


def check_same_origin() -> None:
    """State changes made with the session cookie must come from our own page."""
    origin = request.headers.get("Origin")
    expected = f"{request.scheme}://{request.host}"
    if origin != expected:
        raise Forbidden("cross-origin request refused")
