"""The one error shape, and the one place that builds it.

Every failure answers ``{"error": {"code", "message", "fields"?}}``. Views and services raise;
the handlers registered here turn what was raised into that body.
"""

import logging

from flask import current_app, jsonify, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from papershelf.domain import errors as domain

log = logging.getLogger(__name__)

CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "rate_limited",
    500: "internal_error",
}


class APIError(Exception):
    """An error the HTTP layer raises itself (the domain's errors are mapped below); each kind
    is a subclass with its status, its code (the status's, from ``CODES``) and a default
    message."""

    status = 400
    code = "bad_request"
    message = "bad request"

    def __init__(self, message: str | None = None, fields: dict | None = None, headers=None):
        super().__init__(message or self.message)
        self.message = message or self.message
        self.fields = fields
        self.headers = headers or {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.code = CODES[cls.status]


class BadRequest(APIError):
    status, message = 400, "the request body is not valid JSON"


class Unauthorized(APIError):
    status, message = 401, "a valid API token is required"


class Forbidden(APIError):
    status, message = 403, "forbidden"


class PayloadTooLarge(APIError):
    status, message = 413, "the request body is too large"


class UnsupportedMediaType(APIError):
    status, message = 415, "the request body must be JSON (Content-Type: application/json)"


class ValidationFailed(APIError):
    status, message = 422, "the request has invalid fields"


class RateLimited(APIError):
    status, message = 429, "too many requests; try again later"


def error_body(status: int, code: str, message: str, fields: dict | None = None):
    err = {"code": code, "message": message}
    if fields:
        err["fields"] = fields
    return {"error": err}


API_PREFIXES = ("/api/", "/feeds/")


def _respond(status, code, message, fields=None, headers=None):
    page = current_app.extensions.get("papershelf_error_page")
    if page is not None and not request.path.startswith(API_PREFIXES):
        # The library page's own paths answer a page a person can read (set by ``web``).
        try:
            resp = page(status, message)
        except Exception:  # noqa: BLE001 - the page itself failed: the JSON answer below
            log.exception("the error page could not be rendered")
        else:
            for k, v in (headers or {}).items():
                resp.headers[k] = v
            return resp
    resp = jsonify(error_body(status, code, message, fields))
    resp.status_code = status
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


# The domain's errors, as HTTP sees them.
DOMAIN_STATUS = {domain.NotFound: 404, domain.Conflict: 409, domain.Invalid: 422,
                 domain.Forbidden: 403}


def register_error_handlers(app) -> None:
    @app.errorhandler(APIError)
    def _api_error(e: APIError):
        return _respond(e.status, e.code, e.message, e.fields, e.headers)

    @app.errorhandler(domain.DomainError)
    def _domain_error(e: domain.DomainError):
        status = next((s for cls, s in DOMAIN_STATUS.items() if isinstance(e, cls)), 400)
        return _respond(status, CODES[status], e.message, e.fields)

    @app.errorhandler(ValidationError)
    def _validation(e: ValidationError):
        fields = e.messages if isinstance(e.messages, dict) else {"_schema": e.messages}
        return _respond(422, "validation_error", "the request has invalid fields", fields)

    @app.errorhandler(HTTPException)
    def _http(e: HTTPException):
        status = e.code or 500
        code = CODES.get(status, "bad_request" if status < 500 else "internal_error")
        headers = {}
        if status == 405 and e.valid_methods:
            headers["Allow"] = ", ".join(sorted(e.valid_methods))
        message = {404: "not found", 405: "method not allowed here",
                   413: "the request body is too large"}.get(status, e.description or code)
        return _respond(status, code, message, headers=headers)

    @app.errorhandler(Exception)
    def _unexpected(e: Exception):
        log.exception("unhandled error")
        return _respond(500, "internal_error", "something went wrong on the server; see its log")
