"""GET /api/health: is the server up, and which version."""

from flask import Blueprint

from papershelf import __version__
from papershelf.http import doc
from papershelf.http.schemas import HealthSchema

bp = Blueprint("api_health", __name__, url_prefix="/api")


@bp.get("/health")
@doc(summary="Is the server up", responses={200: HealthSchema}, auth=False)
def health():
    return {"status": "ok", "version": __version__}
