"""The store: the tables, the one write path, and every statement written in SQL.

What lives here and nowhere else: raw SQL, every difference between the dialects (SQLite,
PostgreSQL) and every lock a transaction takes. The services build plain reads and writes of
rows with the models' query builder (``Paper.get_or_none``, ``Paper.select().where(…)``,
``paper.save()``), which peewee renders in either dialect, and call the modules below for the
rest; they write only inside ``db.write``.

- ``db``: the connection, the dialect checks and helpers (``in_list``, ``skip_locked``,
  ``read_timestamp``), and ``write``, the one write path (SQLite's group commit, PostgreSQL's
  retries after a deadlock or a unique-index race).
- ``models``: the tables; ``migrations``: the schema and its versions (run at start, in a
  transaction of their own).
- ``records``: rows as the plain records the API and the exports read.
- One module per kind of query that needs SQL or a dialect branch: ``papers`` (what a save, an
  edit and a page lookup read and lock), ``search`` (the full-text index), ``tokens`` (the
  token check), ``sessions`` (library-page sessions and the sign-in brake), ``groups``
  (memberships, shares, shelves), ``locks`` (the enricher's lock and the arXiv clock),
  ``trash`` (a deleted paper's rows kept, and written back), ``entries`` (the entries exports
  wrote, kept for the next), ``page_cache`` (what page lookups read, kept in the process by
  each paper's version).
"""
