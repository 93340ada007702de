"""The OpenAPI schema is generated without a single drf-spectacular warning.

A warning there is not cosmetic: two nested serializers with the same component name ("Input",
"Output") make one endpoint document another's request body. Name nested serializers with
`@extend_schema_serializer(component_name=...)` and colliding choice sets in ENUM_NAME_OVERRIDES.
"""
from __future__ import annotations

import pytest
import yaml
from django.core.checks import run_checks
from django.core.management import CommandError, call_command
from drf_spectacular.drainage import GENERATOR_STATS


@pytest.fixture
def fresh_stats():
    GENERATOR_STATS.reset()  # warnings are cached per process: start from none
    yield
    GENERATOR_STATS.reset()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_schema_generates_without_warnings(fresh_stats, tmp_path, capsys, lang):
    out = tmp_path / "schema.yml"
    try:
        call_command("spectacular", "--fail-on-warn", "--validate", "--lang", lang, "--file", str(out))
    except CommandError as exc:  # SchemaGenerationError (warnings) / SchemaValidationError
        pytest.fail(f"{exc}\n{capsys.readouterr().err}", pytrace=False)
    schema = yaml.safe_load(out.read_text())
    components = schema["components"]["schemas"]
    assert not {"Input", "Output", "InputSerializer", "OutputSerializer", "Body"} & set(components)


def _request_ref(schema: dict, path: str) -> str:
    body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return body["$ref"].rsplit("/", 1)[-1]


def test_request_bodies_are_each_endpoints_own(fresh_stats, tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    components = schema["components"]["schemas"]
    payment = components[_request_ref(schema, "/api/v1/payments/")]
    assert {"account", "amount", "method", "idempotency_key"} <= set(payment["properties"])
    decide = components[_request_ref(schema, "/api/v1/franchises/applications/{id}/decide/")]
    assert {"grant", "outstanding_debt"} <= set(decide["properties"])
    filing = components[_request_ref(schema, "/api/v1/franchises/applications/")]
    assert {"franchise", "kind", "received_on"} <= set(filing["properties"])


def test_deploy_check_reports_no_schema_warning(fresh_stats):
    messages = [m for m in run_checks(include_deployment_checks=True) if m.id.startswith("drf_spectacular.")]
    assert messages == []


def test_committed_schema_matches_the_code(fresh_stats, tmp_path):
    """docs/api/openapi.yaml is the API's contract under review: any API change shows as a diff there.

    When this fails after an intended change, run `make schema` and commit the file with the change.
    """
    import difflib

    from django.conf import settings

    from tests.conftest import require, using_postgres

    # Integer bounds in the schema follow the database backend; the contract describes PostgreSQL's.
    require(using_postgres(), "needs PostgreSQL: the committed schema carries PostgreSQL's integer ranges")

    committed = settings.BASE_DIR / "docs" / "api" / "openapi.yaml"
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--lang", "en", "--file", str(out))
    generated = out.read_text()
    expected = committed.read_text() if committed.exists() else ""
    if generated != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), generated.splitlines(True),
                                            "docs/api/openapi.yaml (committed)", "generated", n=2))
        pytest.fail(f"The API changed: run `make schema` and commit docs/api/openapi.yaml.\n{diff[:6000]}",
                    pytrace=False)
