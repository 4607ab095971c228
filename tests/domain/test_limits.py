"""The limits: domain/validation.py is the truth; its schemas refuse one more than each limit, and
tests/shared/limits.json, which extension/lib/limits.js is held to as well
(tests/extension/limits.test.js), states the same numbers."""

import json
from pathlib import Path

import pytest

from papershelf.domain import validation
from papershelf.domain.errors import Invalid

VECTORS = json.loads((Path(__file__).parents[1] / "shared" / "limits.json").read_text("utf-8"))
PAPER = {"title": "T", "arxiv_id": "2603.01234"}
HIGHLIGHT = {"exact": "x", "start": 0, "end": 1}


def test_the_shared_limits_are_the_servers():
    assert validation.LIMITS == VECTORS["limits"]


def _lookup(n):
    from papershelf.http.schemas import LookupSchema

    return LookupSchema(), {"arxiv_ids": ["2603.01234"] * n}, "arxiv_ids"


def _query(n):
    from papershelf.http.schemas import PaperQuerySchema

    return PaperQuerySchema(), {"q": "q" * n}, "q"


def _member(n):
    from papershelf.http.groups import MemberInSchema

    return MemberInSchema(), {"user": "u" * n}, "user"


# limit name → n → (schema, data with n of it, the field refused with n + 1)
CHECKS = {
    "title": lambda n: (validation.PaperSaveSchema(), {**PAPER, "title": "t" * n}, "title"),
    "abstract": lambda n: (validation.PaperSaveSchema(), {**PAPER, "abstract": "a" * n}, "abstract"),
    "note": lambda n: (validation.NoteInSchema(), {"body": "n" * n}, "body"),
    "comment": lambda n: (validation.HighlightInSchema(), {**HIGHLIGHT, "comment": "c" * n},
                          "comment"),
    "exact": lambda n: (validation.HighlightInSchema(),
                        {"exact": "e" * n, "start": 0, "end": n}, "exact"),
    "context": lambda n: (validation.HighlightInSchema(), {**HIGHLIGHT, "prefix": "p" * n},
                          "prefix"),
    "section": lambda n: (validation.HighlightInSchema(),
                          {**HIGHLIGHT, "field": "body", "section": "s" * n}, "section"),
    "authors": lambda n: (validation.PaperSaveSchema(), {**PAPER, "authors": ["A B"] * n},
                          "authors"),
    "author": lambda n: (validation.PaperSaveSchema(), {**PAPER, "authors": ["a" * n]}, "authors"),
    "tags": lambda n: (validation.PaperSaveSchema(), {**PAPER, "tags": [f"t{i}" for i in range(n)]},
                       "tags"),
    "tag": lambda n: (validation.PaperSaveSchema(), {**PAPER, "tags": ["t" * n]}, "tags"),
    "citation_key": lambda n: (validation.PaperPatchSchema(), {"citation_key": "k" * n},
                               "citation_key"),
    "lookup": _lookup,
    "query": _query,
    "user_name": _member,
}


def test_every_limit_is_checked():
    assert set(CHECKS) == set(validation.LIMITS)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_each_limit_is_what_the_schemas_take(name):
    limit = validation.LIMITS[name]
    schema, data, field = CHECKS[name](limit)
    validation.load(schema, data, partial=isinstance(schema, validation.PaperPatchSchema))
    schema, data, field = CHECKS[name](limit + 1)
    with pytest.raises(Invalid) as refused:
        validation.load(schema, data, partial=isinstance(schema, validation.PaperPatchSchema))
    assert field in refused.value.fields
