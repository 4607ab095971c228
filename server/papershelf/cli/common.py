"""What every command shares: the ``--data-dir`` option, opening the store, the first start.

Every command opens the store the same way (``--data-dir``, else ``$PAPERSHELF_DATA_DIR``, else
the platform's user data dir; ``$PAPERSHELF_DATABASE_URL`` overrides the store inside it), and
whichever command runs first on an empty store creates the user ``me`` with a token written to
``<data dir>/token``, so ``papershelf import`` works before ``papershelf serve`` ever ran.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

data_dir_option = click.option(
    "--data-dir", type=click.Path(file_okay=False),
    help="the data dir (default: $PAPERSHELF_DATA_DIR, else the platform's user data dir)")

user_option = click.option("--user", "user_name", default="me", show_default=True,
                           help="whose papers")


def write_token_file(data_dir: str, token: str) -> Path:
    """``<data dir>/token``, readable by its owner only."""
    path = Path(data_dir) / "token"
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(token + "\n")
    os.chmod(path, 0o600)
    return path


def open_app(data_dir: str | None, **settings):
    """The app on the store of ``data_dir``; on an empty store, first creates ``me``.

    Answers ``(app, token)``: ``token`` is the new user's token when this call made it (the
    caller shows it once), else None.
    """
    from papershelf.app import StoreError, create_app

    overrides = {"DATA_DIR": data_dir} if data_dir else {}
    try:
        app = create_app({**overrides, **settings})
    except StoreError as e:
        raise click.ClickException(str(e)) from e
    return app, first_start(app)


def first_start(app) -> str | None:
    """On an empty store: create the user ``me`` and a token, write it to ``<data dir>/token``;
    answer the token (else None)."""
    from papershelf.services import auth

    with app.extensions["papershelf_db"].connection_context():
        if not auth.store_is_empty():
            return None
        user = auth.get_or_create_user("me")
        token = auth.create_token(user, label="first start")
    write_token_file(app.config["DATA_DIR"], token)
    return token


def announce_first_start(app, token: str | None, *, err: bool = True) -> None:
    """Say once that ``me`` was made and where its token is (stderr unless told otherwise, so
    that an export to stdout stays clean)."""
    if token:
        path = Path(app.config["DATA_DIR"]) / "token"
        click.echo("papershelf: created the user 'me'. Its API token (shown once, also in "
                   f"{path}):\n\n    {token}\n", err=err)


def open_store(data_dir: str | None, **settings):
    """``open_app`` for commands other than serve: the first start is announced on stderr."""
    app, token = open_app(data_dir, **settings)
    announce_first_start(app, token)
    return app


def get_user(name: str):
    """The user ``name``, or a one-line error."""
    from papershelf.services import auth

    user = auth.find_user(name)
    if user is None:
        raise click.ClickException(
            f"no user named {name!r} (`papershelf token create --user {name}` creates one)")
    return user
