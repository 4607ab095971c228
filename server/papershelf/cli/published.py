"""``papershelf resolve [--all]``: check saved preprints for their published version now;
``papershelf upgrade refs.bib [-o out.bib]``: do the same to the arXiv entries of any .bib file,
in place, with a report on stderr."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from papershelf.cli.common import data_dir_option, open_store


def _enabled_or_fail(cfg) -> None:
    from papershelf.settings import resolving_enabled

    if not resolving_enabled(cfg):
        raise click.ClickException(
            "the catalogues are switched off (PAPERSHELF_S2_API, PAPERSHELF_DBLP_API and "
            "PAPERSHELF_CROSSREF_API, or PAPERSHELF_ARXIV_API, are off)")


@click.command()
@click.option("--all", "everything", is_flag=True,
              help="check every paper with an arXiv id again (of every user)")
@data_dir_option
def resolve(everything, data_dir):
    """Check preprints for a published version (Semantic Scholar, DBLP, Crossref)."""
    from papershelf.services import published

    app = open_store(data_dir)
    _enabled_or_fail(app.config)
    with app.extensions["papershelf_db"].connection_context():
        queued = published.queue_all(everything=everything)
        waiting = published.due_count(limit=10**9)
        click.echo(f"{waiting} papers to check" + (f" ({queued} queued now)" if queued else ""))
        later = published.pending_count() - waiting
        if later > 0:
            click.echo(f"{later} more wait for arXiv's answer or a retry (papershelf enrich "
                       "completes them from arXiv)")
        totals = {"found": 0, "missing": 0, "retrying": 0, "failed": 0}

        def progress(result):
            for key in totals:
                totals[key] += getattr(result, key)
            calls = ", ".join(f"{n} {c}" for n, c in sorted(result.calls.items()))
            click.echo(f"{result.papers} papers: {result.found} found, {result.missing} none"
                       + (f", {result.retrying} to retry later" if result.retrying else "")
                       + (f"  [calls: {calls}]" if calls else ""))
            sys.stdout.flush()

        try:
            published.run_due(app.config, on_batch=progress)
        except KeyboardInterrupt:
            click.echo("interrupted; what was not finished stays queued")
            sys.exit(130)
        click.echo(f"finished: {totals['found']} published versions found, {totals['missing']} "
                   f"none, {totals['retrying']} to retry later, {totals['failed']} failed")


@click.command()
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="write the upgraded file here (default: standard output)")
@click.option("--venue", type=click.Choice(["full", "short"]), default="full",
              help="short: the main venues' short names (\"NeurIPS 2017\")")
@data_dir_option
def upgrade(source, output, venue, data_dir):
    """Cite the published version of a .bib file's arXiv entries, in place: keys, order, every
    other field and comment kept; what changed and why on stderr."""
    from papershelf.formats import bibupgrade
    from papershelf.services import published

    raw = source.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    entries = bibupgrade.scan(text)
    app = open_store(data_dir)
    _enabled_or_fail(app.config)
    preprints, kept = [], {}
    for i, entry in enumerate(entries):
        if not bibupgrade.is_preprint(entry) or entry.type in ("inproceedings", "incollection"):
            continue
        preprints.append(published.Preprint(
            i, bibupgrade.arxiv_of(entry), entry.text("title"), bibupgrade.authors(entry),
            bibupgrade.year(entry), None, []))
        kept[i] = entry
    with app.extensions["papershelf_db"].connection_context():
        outcomes = published.find_versions(published.settings(app.config), preprints,
                                           published.BatchResult())
    changed = 0
    # from the end, so that earlier entries' offsets stay valid
    for i in sorted(outcomes, reverse=True):
        entry, outcome = kept[i], outcomes[i]
        if isinstance(outcome, published.Found):
            text = bibupgrade.upgrade(text, entry, outcome.version, venue)
            changed += 1
    for i in sorted(outcomes):
        entry, outcome = kept[i], outcomes[i]
        if isinstance(outcome, published.Found):
            v = outcome.version
            click.echo(f"{entry.key}: @{entry.type} -> @{v['entry_type']} {v['venue']} "
                       f"({v['source']}: {v['evidence']})", err=True)
        elif isinstance(outcome, Exception):  # the catalogue error that stopped its check
            click.echo(f"{entry.key}: left as it was, a catalogue failed: {outcome}", err=True)
        else:
            click.echo(f"{entry.key}: left as it was, {outcome.reason}", err=True)
    click.echo(f"{changed} of {len(kept)} preprint entries upgraded ({len(entries)} entries)",
               err=True)
    if output is None:
        click.echo(text, nl=False)
    else:
        tmp = output.with_name(output.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(output)
