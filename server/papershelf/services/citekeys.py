"""Citation keys of a user's papers: made, settled, fixed, re-keyed.

A key is made by the user's key formula (``domain.citekey``; ``None``: the default). It is
*provisional* while its paper lacks a first author or a year or waits for arXiv, and follows the
metadata as it is completed; it is *fixed* once the metadata is complete, once it has been
exported, or when the user sets it (*pinned*). A fixed key never changes by itself; re-keying
(after a new formula) is asked for explicitly and leaves pinned keys alone. Keys are unique per
user.
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager
from datetime import date

from papershelf.domain.citekey import (
    DEFAULT_FORMULA,
    KeyRun,
    base_key,
    is_complete,
    make_citation_key,
    parse_formula,
)
from papershelf.domain.errors import Invalid
from papershelf.store import papers as queries
from papershelf.store.db import write
from papershelf.store.models import Paper, User, utcnow


def key_record(fields: dict, enrichment: str | None = None) -> dict:
    """What a key is made of, from a paper's fields (a model's ``__data__`` or a save's data)."""
    published = fields.get("published")
    return {"title": fields.get("title") or "", "authors": fields.get("authors") or [],
            "published": published.isoformat() if isinstance(published, date) else published,
            "arxiv_id": fields.get("arxiv_id"), "enrichment": enrichment}


_runs: contextvars.ContextVar[dict | None] = contextvars.ContextVar("key_runs", default=None)


@contextmanager
def choosing_in_bulk():
    """Within one transaction of a bulk job (an import's batch): each base's keys are read once
    and handed out in turn (``domain.citekey.KeyRun``), so choosing keys stays linear when
    thousands of papers share a base key."""
    token = _runs.set({})
    try:
        yield
    finally:
        _runs.reset(token)


def taken_in_bulk(user_id: int, key: str) -> None:
    """A key given to a paper by other means (an imported entry's own key) inside
    ``choosing_in_bulk``: no later key of that run may be it."""
    runs = _runs.get()
    if runs is not None:
        for (uid, base), run in runs.items():
            if uid == user_id and key.lower().startswith(base):
                run.taken.add(key.lower())


def new_key(user: User, fields: dict, enrichment: str | None) -> tuple[str, bool]:
    """A key for a paper about to be created, and whether it is fixed already."""
    record = key_record(fields, enrichment)
    base = base_key(record, getattr(user, "citekey_format", None))
    runs = _runs.get()
    if runs is None:
        return make_citation_key(record, queries.keys_starting_with(user.id, base), base), \
            is_complete(record)
    run = runs.get((user.id, base.lower()))
    if run is None:
        run = runs[(user.id, base.lower())] = KeyRun(queries.keys_starting_with(user.id, base))
    return run.next_key(base), is_complete(record)


def settle(paper: Paper, formula: str | None, *, force: bool = False) -> bool:
    """Make a provisional key follow the paper's metadata (``force``: any key not pinned), and
    fix it once the metadata is complete. Answers whether the key changed."""
    if paper.citation_key_pinned or (paper.citation_key_fixed and not force):
        return False
    record = key_record(paper.__data__, paper.enrichment)
    base = base_key(record, formula)
    old = paper.citation_key
    suffix = old[len(base):] if old.startswith(base) else None
    if old == base or (not force and suffix and len(suffix) <= 2 and suffix.isalpha()
                       and suffix.islower()):
        key = old  # already this base (with its clash suffix): no churn
    else:
        taken = queries.keys_starting_with(paper.user_id, base) - {old.lower()}
        key = make_citation_key(record, taken, base)
    paper.citation_key = key
    paper.citation_key_fixed = is_complete(record)
    if key != old:
        paper.updated_at = utcnow()  # the export changed: feeds and --watch follow
    return key != old


def pin(paper: Paper) -> None:
    """The user set this key (an edit, or the key of a file they imported)."""
    paper.citation_key_pinned = paper.citation_key_fixed = True


def fix_exported(user: User, paper_ids: list[int]) -> None:
    """An exported key is cited somewhere now: it never changes by itself again."""
    loose = [pid for (pid,) in Paper.select(Paper.id).where(
        (Paper.user == user) & (Paper.citation_key_fixed == False)).tuples()]  # noqa: E712
    if not loose:
        return
    exported = set(paper_ids)
    loose = [pid for pid in loose if pid in exported]

    def fix():
        for i in range(0, len(loose), 500):
            Paper.update(citation_key_fixed=True).where(Paper.id.in_(loose[i:i + 500])).execute()

    write(fix)


def formula_of(user: User) -> str | None:
    return User.get_by_id(user.id).citekey_format


def set_formula(user: User, formula: str | None) -> str | None:
    """Validate and keep the user's key formula (``None``: the default); the keys that are not
    fixed yet follow it at once."""
    if formula is not None and formula.strip() != "":
        try:
            parse_formula(formula)
        except ValueError as e:
            raise Invalid(fields={"citekey_format": [str(e)]}) from None
        formula = formula.strip()
    else:
        formula = None

    def keep():
        User.update(citekey_format=formula).where(User.id == user.id).execute()
        for paper in Paper.select().where((Paper.user == user)
                                          & (Paper.citation_key_fixed == False)):  # noqa: E712
            if settle(paper, formula):
                paper.save()

    write(keep)
    return formula


def rekey(user: User) -> int:
    """Give every paper that is not pinned the key the current formula makes; answers how many
    keys changed."""
    return write(lambda: rekey_in_transaction(user))


def rekey_in_transaction(user: User) -> int:
    """``rekey``'s work, inside a write (a preview runs it and undoes it)."""
    formula = formula_of(user)
    queries.lock_user(user.id)
    changed = 0
    for paper in Paper.select().where((Paper.user == user)
                                      & (Paper.citation_key_pinned == False)):  # noqa: E712
        was_fixed = paper.citation_key_fixed
        if settle(paper, formula, force=True):
            changed += 1
            paper.save()
        elif paper.citation_key_fixed != was_fixed:
            paper.save()
    return changed


def settings_record(user: User) -> dict:
    return {"citekey_format": formula_of(user) or DEFAULT_FORMULA,
            "citekey_default": DEFAULT_FORMULA}
