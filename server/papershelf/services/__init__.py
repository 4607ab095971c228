"""The product's operations, on validated data, in domain terms. They know the store, not the
request: views parse and present, services decide and write (through ``store.db.write``),
raising ``domain.errors``.

- ``papers``: save a paper from a page (idempotent, merging into the saved paper it is), find
  the same work, read one, edit, delete, set its tags.
- ``listing``: a user's papers filtered (search, tag, topic, ids), sorted, a page at a time;
  tag and topic counts.
- ``page_lookup``: which of a page's papers the user (and the user's groups) saved.
- ``search``: a paper's full-text document and search terms.
- ``annotations``: notes and highlights: add, edit, delete.
- ``citekeys``: citation keys: made by the user's formula, provisional until fixed, re-keying.
- ``transfer``: exports and imports.
- ``enrichment``: completing papers from the arXiv API: the queue in the store, the rate
  limit, applying answers.
- ``feeds``: live bibliographies: secret URLs and their versions (ETags).
- ``groups``: groups, members, sharing, a group's shelf and its export.
- ``auth``: users and API tokens.
- ``sessions``: library-page sessions and the brake on guessing tokens.
"""
