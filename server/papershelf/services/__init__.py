"""The product's operations, on validated data, in domain terms. They know the store, not the
request: views parse and present, services decide and write (through ``store.db.write``),
raising ``domain.errors``.

- ``papers``: save a paper from a page (idempotent, merging into the saved paper it is), find
  the same work, read one, edit, delete, set its tags.
- ``papers`` also changes many papers at once (``bulk_update``, one transaction).
- ``listing``: a user's papers filtered (search, tag, topic, ids, reading state, star), sorted
  (added, published, title, first author, venue, key, state), a numbered page or a cursor's
  next, with the total; tag and topic counts.
- ``trash``: deleting papers restorably, and restoring them within the window.
- ``tags``: a user's tags as a whole: counts, rename, merge, delete.
- ``duplicates``: papers that are one work (identities, title + first author + year); merging.
- ``settings``: the key formula's preview and a re-key's, the export defaults.
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
