"""The command line: papershelf serve | token create | export | import | enrich."""

import os
import sys
from pathlib import Path

import click

from papershelf import __version__


def _overrides(data_dir: str | None) -> dict:
    return {"DATA_DIR": data_dir} if data_dir else {}


def write_token_file(data_dir: str, token: str) -> Path:
    path = Path(data_dir) / "token"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(token + "\n")
    os.chmod(path, 0o600)
    return path


def make_app(data_dir: str | None, **extra):
    from papershelf.app import create_app
    from papershelf.db import StoreError

    try:
        return create_app({**_overrides(data_dir), **extra})
    except StoreError as e:
        raise click.ClickException(str(e)) from e


def first_start(app) -> str | None:
    """On an empty store: create the user ``me`` and a token; answer the token (else None)."""
    from papershelf.services import auth

    with app.extensions["papershelf_db"].connection_context():
        if not auth.store_is_empty():
            return None
        user = auth.get_or_create_user("me")
        return auth.create_token(user, label="first start")


@click.group()
@click.version_option(__version__, prog_name="papershelf")
def main():
    """papershelf: save, annotate and cite arXiv papers."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5180, show_default=True, type=int)
@click.option("--data-dir", type=click.Path(file_okay=False), help="default: $PAPERSHELF_DATA_DIR "
              "or the platform's user data dir")
@click.option("--threads", default=8, show_default=True, type=int)
def serve(host, port, data_dir, threads):
    """Serve the API and the library page (waitress)."""
    import logging

    import waitress

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("waitress.queue").setLevel(logging.WARNING)
    app = make_app(data_dir)
    token = first_start(app)
    if token:
        path = write_token_file(app.config["DATA_DIR"], token)
        click.echo("papershelf: created the user 'me'. Its API token (shown once, also in "
                   f"{path}):\n\n    {token}\n")
    from papershelf.app import tune_gc

    tune_gc()
    start_background = app.extensions.get("papershelf_start_background")
    if start_background:
        start_background()
    click.echo(f"papershelf {__version__} serving on http://{host}:{port}  "
               f"(store: {_display_url(app.config['DATABASE_URL'])})")
    sys.stdout.flush()
    waitress.serve(app, host=host, port=port, threads=threads, ident="papershelf",
                   _quiet=True, max_request_body_size=app.config["IMPORT_MAX_BYTES"] + 1024)


def _display_url(url: str) -> str:
    # Never print a password that a PostgreSQL URL may carry.
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return url


@main.group()
def token():
    """API tokens."""


@token.command("create")
@click.option("--user", "user_name", default="me", show_default=True)
@click.option("--label", default="")
@click.option("--data-dir", type=click.Path(file_okay=False))
def token_create(user_name, label, data_dir):
    """Print a new token for USER (creating the user if needed)."""
    from papershelf.services import auth

    app = make_app(data_dir)
    with app.extensions["papershelf_db"].connection_context():
        user = auth.get_or_create_user(user_name)
        click.echo(auth.create_token(user, label=label))


def _register_commands() -> None:
    from papershelf import cli_enrich, cli_transfer

    cli_transfer.register(main)
    cli_enrich.register(main)


_register_commands()
