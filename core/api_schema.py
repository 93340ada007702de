"""The OpenAPI schema documents the errors the API answers, not only its successes.

Every endpoint may refuse (403: not signed in, a bad or read-only token, a role without the action), and a
client that guesses tokens is held back (429, core.signin). Endpoints with input answer 400 with the
details; endpoints with an id in the path, or a page number, answer 404. An optional query parameter may
be sent empty (`?status=`): it then filters nothing. Clients generated from the schema
(and schemathesis, tests/web/test_api_fuzz.py) then know every status they can receive and its body.
Views that document an error themselves (extend_schema) keep their own description.

`api_not_found` is the project's 404 handler: under /api/ a path that matches no route (`/api/v1/parcels/x/`)
answers the same JSON as DRF's own 404, not the HTML page.
"""
from __future__ import annotations

from django.http import JsonResponse
from django.views.defaults import page_not_found
from rest_framework.exceptions import NotFound

ERROR = "ApiError"
VALIDATION_ERROR = "ApiValidationError"
METHODS = ("get", "put", "post", "patch", "delete")

# Written in English: `make schema` renders the contract in English (--lang en).
DESCRIPTIONS = {
    "400": "Invalid input: the answer names each field or parameter and what is wrong with it.",
    "403": "Not signed in, an invalid, revoked or read-only token, or a role without this action.",
    "404": "No such object (or page).",
    "415": "The body is in a content type the API does not read (send JSON).",
    "429": "Too many invalid tokens from this address: try again later.",
}


def _ref(name: str) -> dict:
    return {"content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}}}


def document_errors(result, generator, request, public):
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas[ERROR] = {
        "type": "object",
        "description": "An error that is not about one field.",
        "properties": {"detail": {"type": "string"}},
        "required": ["detail"],
    }
    schemas[VALIDATION_ERROR] = {
        "type": "object",
        "description": "Invalid input: each field (or non_field_errors, or detail) with its messages.",
        "additionalProperties": {},
    }
    for item in result.get("paths", {}).values():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            params = operation.get("parameters", [])
            has_body = "requestBody" in operation
            has_query = any(p.get("in") == "query" for p in params)
            has_path = any(p.get("in") == "path" for p in params)
            paged = any(p.get("in") == "query" and p.get("name") == "page" for p in params)
            errors = {"403": ERROR, "429": ERROR}
            if has_body or has_query:
                errors["400"] = VALIDATION_ERROR
            if has_path or paged:
                errors["404"] = ERROR
            if has_body:
                errors["415"] = ERROR
            for param in params:
                # An empty filter (`?status=`) is no filter, as in the staff's forms: say so.
                if param.get("in") == "query" and not param.get("required"):
                    param["allowEmptyValue"] = True
            responses = operation.setdefault("responses", {})
            for code, name in errors.items():
                if code not in responses:
                    responses[code] = {**_ref(name), "description": DESCRIPTIONS[code]}
            operation["responses"] = dict(sorted(responses.items()))
    return result


def api_not_found(request, exception=None):
    """handler404: JSON under /api/ (as DRF's own 404), the HTML page everywhere else."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": str(NotFound.default_detail)}, status=404)
    return page_not_found(request, exception)
