"""The store: the only place SQL is written and the dialects (SQLite, PostgreSQL) differ.

``db`` (the connection, the one write path), ``models`` (the tables), ``migrations`` (the
schema), ``records`` (rows as the plain records the API and the exports read), and one module
per kind of query the services need (``papers``, ``search``, ``tokens``, ``queue``).
"""
