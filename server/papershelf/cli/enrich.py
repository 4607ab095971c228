"""``papershelf enrich [--all]``: complete saved papers from arXiv now, in the foreground."""

import sys

import click

from papershelf.cli.common import data_dir_option, open_store


def _describe(result) -> str:
    parts = [f"{result.done} done"]
    if result.failed:
        parts.append(f"{result.failed} failed")
    if result.retrying:
        parts.append(f"{result.retrying} to retry later")
    text = f"{result.papers} papers ({result.ids} arXiv ids): " + ", ".join(parts)
    if result.error:
        text += f"  [{result.error}]"
    return text


@click.command()
@click.option("--all", "everything", is_flag=True,
              help="queue every paper with an arXiv id again (of every user)")
@data_dir_option
@click.option("--verbose", "-v", is_flag=True, help="list each paper that failed")
def enrich(everything, data_dir, verbose):
    """Complete pending papers from the arXiv API (one call per 100, spaced by the limit)."""
    from papershelf.services import enrichment
    from papershelf.settings import enrichment_enabled

    app = open_store(data_dir)
    cfg = app.config
    if not enrichment_enabled(cfg):
        raise click.ClickException("enrichment is switched off (PAPERSHELF_ARXIV_API=off)")
    with app.extensions["papershelf_db"].connection_context():
        if everything:
            click.echo(f"queued {enrichment.queue_all()} papers with an arXiv id")
        waiting = enrichment.due_count(limit=10**9)
        if not waiting:
            click.echo("nothing to do: no paper is waiting for arXiv")
        else:
            click.echo(f"{waiting} papers waiting; at most one call every "
                       f"{cfg['ARXIV_MIN_INTERVAL']:g} s")
        totals = {"done": 0, "failed": 0, "retrying": 0}
        number = 0

        def progress(result):
            nonlocal number
            number += 1
            for key in totals:
                totals[key] += getattr(result, key)
            click.echo(f"batch {number}: {_describe(result)}")
            if verbose:
                for paper_id, reason in result.failures:
                    click.echo(f"  paper {paper_id}: {reason}")
            sys.stdout.flush()

        try:
            enrichment.run_due(cfg, on_batch=progress)
        except KeyboardInterrupt:
            click.echo("interrupted; what was not finished stays queued")
            sys.exit(130)
        later = enrichment.pending_count()
        if number:
            click.echo(f"finished: {totals['done']} done, {totals['failed']} failed"
                       + (f", {later} still pending (arXiv unavailable; retried later)"
                          if later else ""))
