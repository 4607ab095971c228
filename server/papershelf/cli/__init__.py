"""The command line: ``papershelf serve | token | export | import | enrich | resolve |
upgrade``, one module each (``published`` holds resolve and upgrade).

Every command takes ``--data-dir`` (else ``$PAPERSHELF_DATA_DIR``) the same way; see
``common``. Expected failures, a bad file among them, end in one line on stderr and exit 1.
"""

import click

from papershelf import __version__
from papershelf.cli import enrich, published, serve, tokens, transfer


@click.group()
@click.version_option(__version__, prog_name="papershelf")
def main():
    """papershelf: save, annotate and cite arXiv papers."""


main.add_command(serve.serve)
main.add_command(tokens.token)
main.add_command(transfer.export_command)
main.add_command(transfer.import_command)
main.add_command(enrich.enrich)
main.add_command(published.resolve)
main.add_command(published.upgrade)
