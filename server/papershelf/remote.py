"""One HTTP call to a service the server asks (arXiv's API, the catalogues): what the clients
``arxiv_api`` and ``catalogues`` share.

``call`` answers ``(status, body, headers)`` for any HTTP answer, an error status included (its
body read, up to ``max_body + 1`` bytes, so that a caller can tell a body that is too large);
a service that cannot be reached (a refused connection, a timeout, a body cut short) raises the
caller's ``unavailable`` error. ``Unavailable`` carries the status and the ``Retry-After`` the
service sent (``retry_after``: seconds, from a number or an HTTP date).
"""

from __future__ import annotations

import http.client
import urllib.error
import urllib.request
from datetime import datetime
from email.message import Message
from email.utils import parsedate_to_datetime


class Unavailable(Exception):
    """The service is down, overloaded, rate limiting or unreachable: retry later."""

    def __init__(self, message: str, status: int | None = None, retry_after: float | None = None):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def retry_after(value: str | None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait (None: it asks nothing readable)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(when.tzinfo)).total_seconds())


def is_error(status: int) -> bool:
    """An answer urllib gives as an error (not 2xx)."""
    return not 200 <= status < 300


def call(request: urllib.request.Request, timeout: float, *, name: str, max_body: int,
         unavailable: type[Unavailable]) -> tuple[int, bytes, Message]:
    """``(status, body, headers)`` of ``request``; raises ``unavailable`` when ``name`` (the
    service, for the message) cannot be reached or its answer is cut short."""
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (http(s))
            return response.status, response.read(max_body + 1), response.headers
    except urllib.error.HTTPError as e:
        try:
            body = e.read(max_body + 1)
        except (OSError, http.client.HTTPException):
            body = b""
        finally:
            e.close()
        return e.code, body, e.headers or Message()
    except (OSError, http.client.HTTPException) as e:  # URLError, timeouts, resets, cut bodies
        reason = getattr(e, "reason", None) or e
        raise unavailable(f"{name} is unreachable: {reason}") from None
