"""Schema-driven fuzzing: schemathesis generates valid and invalid requests for every operation
in /api/openapi.json; none may answer 5xx, and every error must have the product's shape.

The requests come from schemathesis's strategies (``APIOperation.as_strategy``) driven by
Hypothesis here, not from its pytest plugin, whose lazy fixture loading depends on pytest
internals (``Function._nodeid``) that pytest 9 no longer has.
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode


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


def check_response(case, response):
    assert response.status_code < 500, (case.method, case.path, case.query, case.body,
                                        response.text[:500])
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        assert set(body["error"]) <= {"code", "message", "fields"}
        assert body["error"]["code"] and body["error"]["message"]


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
                         ids=["valid", "invalid"])
def test_no_operation_answers_5xx_or_an_unshaped_error(app, seeded, mode):
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15  # every route of the API is in the description
    calls = []

    def fuzzer(operation):
        @settings(max_examples=30, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(data=st.data())
        def fuzz(data):
            case = data.draw(operation.as_strategy(generation_mode=mode))
            check_response(case, case.call(headers=seeded))
            calls.append(operation.label)

        return fuzz

    nothing_invalid = set()
    for operation in operations:
        try:
            fuzzer(operation)()
        except Unsatisfiable:
            # No input of this operation can be made invalid (no parameter, no body).
            assert mode is GenerationMode.NEGATIVE and not has_inputs(operation), operation.label
            nothing_invalid.add(operation.label)
    assert set(calls) | nothing_invalid == {operation.label for operation in operations}
    assert len(nothing_invalid) <= 3, nothing_invalid


def has_inputs(operation) -> bool:
    return bool(len(operation.path_parameters) or len(operation.query) or len(operation.body))
