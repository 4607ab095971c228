"""``papershelf export`` and ``papershelf import``: the same files as the HTTP API, from a shell.

``register(main)`` adds both commands to the main click group. Long runs show progress on
stderr (papers written, records imported); the file itself goes to ``--output`` or stdout.
"""

import sys

import click

from papershelf.cli.common import data_dir_option, get_user, open_store, user_option
from papershelf.formats import EXPORT_FORMATS, IMPORT_FORMATS
from papershelf.settings import enrichment_enabled


def _ids(value: str | None) -> list[int] | None:
    if not value:
        return None
    try:
        return [int(v) for v in value.split(",") if v.strip()]
    except ValueError as e:
        raise click.BadParameter("a comma-separated list of paper ids") from e


@click.command("export")
@click.option("--format", "fmt", type=click.Choice(list(EXPORT_FORMATS)), default="bibtex",
              show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              help="file to write (default: stdout)")
@user_option
@click.option("--tag", help="only papers with this tag")
@click.option("--topic", help="only papers from this topic page")
@click.option("--ids", help="only these paper ids (comma-separated)")
@click.option("--q", "q", help="only papers matching this search")
@click.option("--no-abstract", is_flag=True, help="leave abstracts out")
@click.option("--notes-field", type=click.Choice(["annote", "note"]), default="annote",
              show_default=True, help="BibTeX field for notes and highlights")
@click.option("--encoding", type=click.Choice(["latex", "utf8"]), default="latex",
              show_default=True, help="utf8 keeps non-ASCII text (biber)")
@click.option("--watch", is_flag=True,
              help="keep --output in sync: rewrite it (atomically) within 2 s of a change, "
                   "until Ctrl-C or SIGTERM")
@data_dir_option
def export_command(fmt, output, user_name, tag, topic, ids, q, no_abstract, notes_field,
                   encoding, watch, data_dir):
    """Export papers with their notes and highlights (BibTeX by default)."""
    from papershelf.formats import writer_for
    from papershelf.services import transfer

    if watch and output == "-":
        raise click.UsageError("--watch needs --output FILE")
    app = open_store(data_dir)
    filters = {"q": q, "tag": tag, "topic": topic, "ids": _ids(ids)}
    options = {"abstract": not no_abstract, "notes_field": notes_field, "encoding": encoding}

    def export_to(out, progress: bool) -> int:
        written = 0

        def counted(items):
            nonlocal written
            for record in items:
                written += 1
                if progress and written % 500 == 0:
                    click.echo(f"\r{written} papers written…", nl=False, err=True)
                yield record

        with app.extensions["papershelf_db"].connection_context():
            user = get_user(user_name)
            records = transfer.export_records(user, backup=fmt == "json", **filters)
            for chunk in writer_for(fmt)(counted(records), **options):
                out.write(chunk)
        return written

    if watch:
        _watch(app, output, user_name, fmt, filters, options, export_to)
        return
    to_file = output != "-"
    with click.open_file(output, "w", encoding="utf-8", atomic=to_file) as out:
        written = export_to(out, to_file)
    if to_file:
        click.echo(f"\r{written} papers written to {output}", err=True)


WATCH_INTERVAL = 1.0  # seconds between two looks at the store: a change shows within 2 s


def _watch(app, output, user_name, fmt, filters, options, export_to) -> None:
    """Rewrite ``output`` whenever what it would contain changes; leave it untouched otherwise.

    Idle, each look is one aggregate query (``feeds.version``), never the export itself. A new
    file is written next to ``output`` and renamed over it only when its bytes differ, so the
    file is never half-written and its time only moves when its content does.
    """
    import os
    import signal
    import tempfile
    import time

    from papershelf.services import feeds

    def stop(*_):
        raise KeyboardInterrupt

    # A kill (a service manager stopping it) stops it as Ctrl-C does: a file being written is
    # removed, never left beside the output.
    signal.signal(signal.SIGTERM, stop)
    salt = repr(sorted(options.items()))
    last = None
    click.echo(f"watching: {output} follows the library (Ctrl-C stops)", err=True)
    try:
        while True:
            with app.extensions["papershelf_db"].connection_context():
                user = get_user(user_name)
                now = feeds.version(user, format=fmt, salt=salt, **filters).etag
            if now != last:
                folder = os.path.dirname(os.path.abspath(output))
                fd, temp = tempfile.mkstemp(prefix=".papershelf-", dir=folder)
                try:
                    with os.fdopen(fd, "w", encoding="utf-8") as out:
                        written = export_to(out, False)
                    if _same_bytes(temp, output):
                        os.unlink(temp)
                    else:
                        os.replace(temp, output)
                        click.echo(f"{time.strftime('%H:%M:%S')} {written} papers written to "
                                   f"{output}", err=True)
                except BaseException:
                    if os.path.exists(temp):
                        os.unlink(temp)
                    raise
                last = now
            time.sleep(WATCH_INTERVAL)
    except KeyboardInterrupt:
        click.echo("stopped watching", err=True)


def _same_bytes(a: str, b: str) -> bool:
    import filecmp
    import os

    return os.path.exists(b) and filecmp.cmp(a, b, shallow=False)


def one_line(text: str, limit: int = 300) -> str:
    """A message fit for one line of stderr."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def read_input(path: str, limit: int) -> bytes:
    """The bytes of FILE (``-``: stdin), at most ``limit`` of them (``/dev/zero`` or an endless
    pipe is refused, not read until memory runs out), or a one-line error."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as e:
        raise click.ClickException(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > limit:
        raise click.ClickException(
            f"{path} is larger than {limit:,} bytes (PAPERSHELF_IMPORT_MAX_BYTES)")
    return data


@click.command("import")
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--format", "fmt", type=click.Choice(list(IMPORT_FORMATS)),
              help="default: guessed from the file")
@user_option
@data_dir_option
def import_command(file, fmt, user_name, data_dir):
    """Import BibTeX, CSL-JSON or a papershelf backup (FILE, or - for stdin)."""
    from papershelf.domain.errors import DomainError
    from papershelf.services import transfer
    from papershelf.settings import load_settings

    data = read_input(file, load_settings()["IMPORT_MAX_BYTES"])
    app = open_store(data_dir)
    with app.extensions["papershelf_db"].connection_context():
        user = get_user(user_name)
        try:
            fmt, found, skipped = transfer.read_upload(data, fmt)
        except DomainError as error:  # say why; nothing was changed
            fields = getattr(error, "fields", None) or {}
            detail = "; ".join(m for ms in fields.values() for m in ms if m not in error.message)
            raise click.ClickException(
                one_line(f"{file}: {error.message}" + (f" ({detail})" if detail else ""))) from None
        except Exception as error:  # noqa: BLE001 - whatever a hostile file trips: one line
            raise click.ClickException(
                one_line(f"{file} could not be read as {fmt or 'an import file'}: "
                         f"{type(error).__name__}: {error}")) from None
        with click.progressbar(length=len(found), label=f"importing {len(found)} records",
                               file=sys.stderr, show_pos=True) as bar:
            try:
                report = transfer.import_records(
                    user, fmt, found, skipped, progress=bar.update,
                    enrich=enrichment_enabled(app.config))
            except DomainError as error:
                raise click.ClickException(one_line(f"{file}: {error.message}")) from None
    click.echo(f"{report['created']} created, {report['updated']} updated, "
               f"{report['skipped']} skipped")
    for error in report["errors"]:
        where = str(error.get("key") or f"record {error.get('index')}")
        where = where if len(where) <= 64 else where[:63] + "…"
        extra = f" {error['fields']}" if error.get("fields") else ""
        done = "imported" if error.get("imported") else "skipped"  # (imported: without that)
        click.echo(one_line(f"  {done} {where}: {error['reason']}{extra}"), err=True)
