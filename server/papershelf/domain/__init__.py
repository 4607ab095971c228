"""Pure rules of papershelf: no Flask, no SQL, no I/O.

Identifiers (arXiv ids, DOIs, URLs), BibTeX names, anchoring, the highlight palette, merge rules,
citation keys, and the domain errors (NotFound, Conflict, Invalid) that services raise and the
HTTP layer maps to statuses. A rule that the extension needs too is written once in each
language and held together by the shared test vectors in ``tests/shared/``.
"""
