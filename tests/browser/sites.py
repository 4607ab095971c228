"""The fixture sites for Firefox: alphaxiv.org and arxiv.org as an HTTPS proxy on loopback that
is the sites itself. Firefox sends its requests for other hosts here (the profile's proxy
settings); a CONNECT to a fixture host is answered with TLS under a certificate of the suite's
own CA (made here with openssl; the profile trusts that CA), and every request inside it with
the Chromium fixtures' own routing function (conftest's ``_route_page``, fed a small stand-in
for Playwright's route), so the two browsers see the same pages. Any other host is refused.
"""

import base64
import shutil
import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

# The hosts whose fixture pages are served, and which the profile sends to loopback.
_PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"


def _page_hosts():
    """The hosts of the saved real pages (tests/fixtures/pages: publishers' and listing sites'),
    and the hostile page's, which the Firefox flows serve at their own addresses too."""
    import json
    from urllib.parse import urlparse

    urls = [p["url"] for p in json.loads((_PAGES / "sites.json").read_text())]
    urls += [p["url"] for p in json.loads((_PAGES / "listings" / "expected.json").read_text())]
    return sorted({urlparse(u).hostname for u in urls} | {"papers.hostile.example", "en.wikipedia.org"})


FIXTURE_HOSTS = ("arxiv.org", "www.arxiv.org", "export.arxiv.org", "www.alphaxiv.org", "alphaxiv.org",
                 *(h for h in _page_hosts() if h not in ("arxiv.org", "www.arxiv.org")))


# ---- a certificate authority of the suite's own, and the fixture hosts' certificate ----


def make_certificates(directory):
    """A throwaway CA and a leaf certificate for FIXTURE_HOSTS signed by it (openssl), in
    `directory`. Returns {"ca": pem path, "cert": leaf pem, "key": leaf key, "ca_der_b64": …}."""
    openssl = shutil.which("openssl")
    if not openssl:
        raise FileNotFoundError("openssl is not installed")
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)

    def run(*args):
        subprocess.run([openssl, *args], check=True, capture_output=True, timeout=60, cwd=d)

    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "3",
        "-subj", "/CN=papershelf test CA", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    run("req", *ec, "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", f"/CN={FIXTURE_HOSTS[0]}")
    sans = ",".join(f"DNS:{h}" for h in FIXTURE_HOSTS)
    (d / "leaf.ext").write_text(
        f"subjectAltName={sans}\nbasicConstraints=critical,CA:FALSE\n"
        "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
    run("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-days", "2", "-extfile", "leaf.ext", "-out", "leaf.pem")
    der = ssl.PEM_cert_to_DER_cert((d / "ca.pem").read_text())
    return {"ca": str(d / "ca.pem"), "cert": str(d / "leaf.pem"), "key": str(d / "leaf.key"),
            "ca_der_b64": base64.b64encode(der).decode("ascii")}


# ---- the fixture pages over TLS: an HTTPS proxy on loopback that is the sites itself ----


class _Request:
    def __init__(self, url, resource_type):
        self.url = url
        self.resource_type = resource_type


class _Route:
    """What a Playwright route handler sees of a request (request.url, request.resource_type) and
    does with it (fulfill): enough for conftest's routing function to answer Firefox too."""

    def __init__(self, url, resource_type):
        self.request = _Request(url, resource_type)
        self.answer = None

    def fulfill(self, status=200, content_type="text/plain", body=b"", headers=None):
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.answer = (status, content_type, body, dict(headers or {}))


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    tunnel_host = None
    tunnel = None

    def finish(self):
        try:
            super().finish()
        finally:
            if self.tunnel is not None:  # it took over the client's socket (wrap_socket)
                self.tunnel.close()

    def log_message(self, *args):  # quiet: the tests say what failed
        pass

    def do_CONNECT(self):
        host = self.path.rsplit(":", 1)[0]
        if host not in FIXTURE_HOSTS:
            self.server.requests.append(("CONNECT", self.path, 403))
            self.send_error(403, "not a fixture host")
            return
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        try:
            tls = self.server.tls.wrap_socket(self.connection, server_side=True)
        except (ssl.SSLError, OSError):
            self.close_connection = True
            return
        self.connection = self.tunnel = tls
        self.rfile = tls.makefile("rb")
        self.wfile = tls.makefile("wb")
        self.tunnel_host = host
        self.close_connection = False  # go on reading requests, now inside the tunnel

    def _answer(self, with_body=True):
        if not self.tunnel_host:  # plain-HTTP proxying: nothing here goes outside
            self.server.requests.append((self.command, self.path, 403))
            self.send_error(403, "only the fixture hosts, over https")
            return
        url = f"https://{self.tunnel_host}{self.path}"
        dest = self.headers.get("Sec-Fetch-Dest", "")
        route = _Route(url, "document" if dest in ("document", "iframe") else dest or "other")
        self.server.route(route)
        status, content_type, body, headers = route.answer or (404, "text/plain", b"no route", {})
        self.server.requests.append((self.command, url, status))
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        if with_body:
            self.wfile.write(body)
        self.wfile.flush()

    def do_GET(self):
        self._answer()

    def do_HEAD(self):
        self._answer(with_body=False)

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._answer()


class FixtureSites:
    """The fixture sites on a loopback port: Firefox's HTTPS proxy. `route` is called with a
    Playwright-like route for each request (see _Route); for one test, `overrides` maps a URL to
    (content type, body) (as a Playwright route would) and `page_scripts` are run first in every page served
    (as Playwright's add_init_script: they are the site's own scripts)."""

    def __init__(self, route, certs):
        self.overrides = {}
        self.page_scripts = []
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(certs["cert"], certs["key"])
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.tls = tls
        self.httpd.requests = []
        self.httpd.route = self._route
        self._fallback = route
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def _route(self, route):
        override = self.overrides.get(route.request.url)
        if override is not None:
            content_type, body = override
            route.fulfill(status=200, content_type=content_type, body=body)
        else:
            self._fallback(route)
        status, content_type, body, headers = route.answer or (404, "text/plain", b"", {})
        if self.page_scripts and content_type.startswith("text/html"):
            scripts = "".join(f"<script>{s}</script>" for s in self.page_scripts).encode("utf-8")
            at = body.find(b"<head>")
            at = at + len(b"<head>") if at >= 0 else 0
            route.answer = (status, content_type, body[:at] + scripts + body[at:], headers)

    def reset(self):
        self.overrides.clear()
        self.page_scripts.clear()

    @property
    def requests(self):
        return self.httpd.requests

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
