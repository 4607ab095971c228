"""What can go wrong in papershelf's own terms. Services raise these; they carry no HTTP.

The HTTP layer maps them to statuses (``http`` error map: NotFound 404, Conflict 409,
Invalid 422); the CLI prints their message in one line.
"""

from __future__ import annotations


class DomainError(Exception):
    """A failure a caller can explain to a person: ``message``, and per-field ``fields``."""

    default_message = "the request cannot be carried out"

    def __init__(self, message: str | None = None, fields: dict | None = None):
        super().__init__(message or self.default_message)
        self.message = message or self.default_message
        self.fields = fields


class NotFound(DomainError):
    """No such row for this user (another user's rows are not found either)."""

    default_message = "not found"


class Conflict(DomainError):
    """The change clashes with what is stored (a taken citation key, arXiv id, DOI or URL)."""

    default_message = "conflict"


class Invalid(DomainError):
    """The input breaks a rule: ``fields`` says which field and why."""

    default_message = "the request has invalid fields"


class Forbidden(DomainError):
    """The user may see the row but not change it (a group's settings, for a member who does
    not own it)."""

    default_message = "only the owner may do this"
