"""papershelf under waitress: the one place the server is built, for ``papershelf serve``, the
tests and bench/.

Waitress answers some failures itself, before the app sees the request: a body over its limit,
a malformed request line or header, a chunked body that does not parse. It writes those as
plain text; here they answer the product's error shape (``{"error": {"code", "message"}}``) like
every other failure.
"""

from __future__ import annotations

import json

from waitress.channel import HTTPChannel
from waitress.server import create_server as _waitress_server
from waitress.task import ErrorTask

from papershelf.http.errors import CODES

# Waitress's own limit sits above the app's (IMPORT_MAX_BYTES, checked by Flask with a JSON 413),
# so a body just over the app's limit gets the app's answer; this one stops a body that would
# fill the disk (waitress buffers a body before the app runs).
BODY_LIMIT_FACTOR = 2


class _JsonErrorTask(ErrorTask):
    def execute(self):
        error = self.request.error
        status = getattr(error, "code", 400)
        message = {413: "the request body is too large",
                   431: "the request headers are too large"}.get(
            status, f"the request is malformed: {getattr(error, 'body', '')}".rstrip(": "))
        code = CODES.get(status) or ("not_implemented" if status == 501 else "bad_request")
        body = json.dumps({"error": {"code": code,
                                     "message": message}}).encode() + b"\n"
        self.status = f"{status} {getattr(error, 'reason', 'Bad Request')}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class _Channel(HTTPChannel):
    error_task_class = _JsonErrorTask


def create_server(app, host: str = "127.0.0.1", port: int = 0, threads: int = 8, **kw):
    """A waitress server for ``app`` whose own errors answer JSON (not started)."""
    limit = app.config["IMPORT_MAX_BYTES"] * BODY_LIMIT_FACTOR + 1024
    server = _waitress_server(app, host=host, port=port, threads=threads,
                              max_request_body_size=limit, **kw)
    server.channel_class = _Channel
    return server


def served_port(server) -> int:
    """The port ``server`` listens on (the one the kernel chose for port 0); a server on several
    sockets (a host name with more than one address) answers its first."""
    port = getattr(server, "effective_port", None)
    return port if port is not None else server.effective_listen[0][1]
