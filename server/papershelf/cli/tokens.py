"""``papershelf token create|list|revoke``: a user's API tokens from a shell."""

from __future__ import annotations

import click

from papershelf.cli.common import data_dir_option, get_user, open_store


@click.group()
def token():
    """API tokens: create, list, revoke."""


@token.command("create")
@click.option("--user", "user_name", default="me", show_default=True)
@click.option("--label", default="", help="a name to tell the token by (e.g. 'laptop')")
@click.option("--expires-in-days", type=click.IntRange(1, 3650), default=None,
              help="the token stops working after this many days (default: never)")
@data_dir_option
def token_create(user_name, label, expires_in_days, data_dir):
    """Print a new token for USER (creating the user if needed)."""
    from papershelf.services import auth

    app = open_store(data_dir)
    with app.extensions["papershelf_db"].connection_context():
        user = auth.get_or_create_user(user_name)
        if expires_in_days is None:
            click.echo(auth.create_token(user, label=label))
        else:
            click.echo(auth.create_named_token(user, label, expires_in_days)[1])


def _when(value) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else "never"


@token.command("list")
@click.option("--user", "user_name", default="me", show_default=True)
@data_dir_option
def token_list(user_name, data_dir):
    """List USER's tokens: id, label, created, last used, expiry, state (never the secret)."""
    from papershelf.services import auth

    app = open_store(data_dir)
    with app.extensions["papershelf_db"].connection_context():
        tokens = auth.list_tokens(get_user(user_name))
    rows = [("id", "label", "created (UTC)", "last used (UTC)", "expires (UTC)", "state")]
    rows += [(str(t.id), t.label or "-", _when(t.created_at), _when(t.last_used_at),
              _when(t.expires_at) if t.expires_at else "never", auth.token_state(t))
             for t in tokens]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


@token.command("revoke")
@click.argument("which")
@click.option("--user", "user_name", default="me", show_default=True)
@data_dir_option
def token_revoke(which, user_name, data_dir):
    """Revoke USER's token WHICH (its id or its label); its sessions end with it."""
    from papershelf.services import auth

    app = open_store(data_dir)
    with app.extensions["papershelf_db"].connection_context():
        try:
            revoked = auth.revoke_token(get_user(user_name), which)
        except auth.TokenNotFound as e:
            raise click.ClickException(str(e)) from None
    for t in revoked:
        click.echo(f"revoked token {t.id}" + (f" ({t.label})" if t.label else ""))
