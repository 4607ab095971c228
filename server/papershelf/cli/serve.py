"""``papershelf serve``: the API and the library page under waitress."""

from __future__ import annotations

import sys

import click

from papershelf import __version__
from papershelf.cli.common import announce_first_start, data_dir_option, open_app


def display_url(url: str) -> str:
    """A store URL fit to print: never the password a PostgreSQL URL may carry."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return url


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5180, show_default=True, type=click.IntRange(0, 65535),
              help="0: any free port (the line 'serving on' names the one taken)")
@data_dir_option
@click.option("--threads", default=8, show_default=True, type=int)
def serve(host, port, data_dir, threads):
    """Serve the API and the library page (waitress)."""
    import logging

    from papershelf.app import tune_gc
    from papershelf.serving import create_server, served_port

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("waitress.queue").setLevel(logging.WARNING)
    app, token = open_app(data_dir)
    announce_first_start(app, token, err=False)
    tune_gc()
    try:
        server = create_server(app, host=host, port=port, threads=threads, ident="papershelf")
    except OSError as e:  # the port is taken, or the host is not ours: say so in one line
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    start_background = app.extensions.get("papershelf_start_background")
    if start_background:
        start_background()
    click.echo(f"papershelf {__version__} serving on http://{host}:{served_port(server)}  "
               f"(store: {display_url(app.config['DATABASE_URL'])})")
    sys.stdout.flush()
    server.run()
