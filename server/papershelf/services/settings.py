"""A user's settings: the key formula (``citekeys``) with a preview of what it makes and what a
re-key would change, and the export defaults an export uses where its query says nothing."""

from papershelf.domain.citekey import base_key, parse_formula
from papershelf.domain.errors import Invalid
from papershelf.services import citekeys
from papershelf.store.db import write
from papershelf.store.models import Paper, User

EXPORT_DEFAULTS = {"abstract": True, "notes_field": "annote", "encoding": "latex",
                   "cite": "published"}
PREVIEW_PAPERS = 6


def export_defaults(user: User) -> dict:
    kept = User.get_by_id(user.id).export_defaults or {}
    return {k: kept.get(k, v) for k, v in EXPORT_DEFAULTS.items()}


def export_options(user: User) -> dict:
    """The user's export defaults as the writers' options (the setting ``cite`` is their
    ``version``)."""
    return {"version" if k == "cite" else k: v for k, v in export_defaults(user).items()}


def settings_record(user: User) -> dict:
    return {**citekeys.settings_record(user), "export": export_defaults(user)}


def update_settings(user: User, data: dict) -> dict:
    if "citekey_format" in data:
        citekeys.set_formula(user, data["citekey_format"])
    if "export" in data:
        merged = {**export_defaults(user), **data["export"]}
        write(lambda: User.update(export_defaults=merged).where(User.id == user.id).execute())
    return settings_record(user)


def _checked(formula: str | None) -> str | None:
    if formula is None or not formula.strip():
        return None
    try:
        parse_formula(formula)
    except ValueError as e:
        raise Invalid(fields={"citekey_format": [str(e)]}) from None
    return formula.strip()


class _Undone(Exception):
    """Carries a dry run's answer out of the write it undoes."""

    def __init__(self, answer):
        super().__init__("dry run")
        self.answer = answer


def preview(user: User, formula: str | None, *, rekey: bool = False) -> dict:
    """What ``formula`` makes of the user's newest papers (``examples``: their key now and the
    formula's key, before any clash suffix), and, with ``rekey``, every key a re-key with it
    would change (``changes``), found by running the re-key and undoing it."""
    formula = _checked(formula)
    newest = list(Paper.select().where(Paper.user == user).order_by(Paper.id.desc())
                  .limit(PREVIEW_PAPERS))
    examples = [{"id": p.id, "title": p.title, "key": p.citation_key,
                 "formula_key": base_key(citekeys.key_record(p.__data__, p.enrichment), formula),
                 "pinned": bool(p.citation_key_pinned)} for p in newest]
    answer = {"citekey_format": formula or citekeys.DEFAULT_FORMULA, "examples": examples}
    if rekey:
        answer["changes"] = _rekey_changes(user, formula)
    return answer


def _rekey_changes(user: User, formula: str | None) -> list[dict]:
    def dry_run():
        before = {pid: key for pid, key in Paper.select(Paper.id, Paper.citation_key)
                  .where(Paper.user == user).tuples()}
        User.update(citekey_format=formula).where(User.id == user.id).execute()
        citekeys.rekey_in_transaction(user)
        changes = [{"id": pid, "title": title, "old": before[pid], "new": key}
                   for pid, title, key in Paper.select(Paper.id, Paper.title, Paper.citation_key)
                   .where(Paper.user == user).order_by(Paper.id).tuples()
                   if before.get(pid) != key]
        raise _Undone(changes)

    try:
        write(dry_run)
    except _Undone as done:
        return done.answer
    raise AssertionError("unreachable")
