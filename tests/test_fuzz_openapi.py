"""Schema-driven fuzzing: schemathesis generates valid and invalid requests for every operation
in /api/openapi.json; none may answer 5xx, and every error must have the product's shape."""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings


@pytest.fixture
def api_schema(app):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def seeded(client, alice):
    """Rows with low ids, so generated ids sometimes name real papers, notes and highlights."""
    for i in range(3):
        p = client.post("/api/papers", json={"title": f"Seed {i}", "abstract": "Seed text here"},
                        headers=alice).json
        client.post(f"/api/papers/{p['id']}/notes", json={"body": "seed"}, headers=alice)
        client.post(f"/api/papers/{p['id']}/highlights",
                    json={"exact": "Seed", "start": 0, "end": 4}, headers=alice)
    return alice


@schema.parametrize()
@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_operation_answers_5xx_or_an_unshaped_error(case, seeded):
    response = case.call(headers=seeded)
    assert response.status_code < 500, (case.method, case.path, response.text[:500])
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        assert set(body["error"]) <= {"code", "message", "fields"}
        assert body["error"]["code"] and body["error"]["message"]
