"""Pure rules of papershelf: no Flask, no SQL, no I/O.

``identifiers`` (arXiv ids, DOIs, URLs), ``names`` (people's and organisations' names by BibTeX's
rules), ``citekey`` (citation keys from a key formula), ``latex`` (text to LaTeX and back, the
form BibTeX names and fields are written in), ``anchoring``, ``palette`` (the highlight colours),
``merge`` (what a later save may change), ``record`` (the one shape of a paper as a record),
``validation`` (limits and request schemas), ``entry_types`` (the venue fields each entry type
takes; reading states), and ``errors`` (NotFound, Conflict, Invalid) that
services raise and the HTTP layer maps to statuses. A rule that the extension needs too is
written once in each language and held together by the shared test vectors in ``tests/shared/``.
"""
