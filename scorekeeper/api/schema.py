"""The published schema made the whole truth, where drf-spectacular's defaults fall short.

A postprocessing hook (settings.SPECTACULAR_SETTINGS) that:
- types every 400: `ValidationErrors` ({field: [messages]}, nested for `rules` and lists) or
  `Error` (a body that is not JSON); a round's 400 is a `RoundErrors` first;
- marks `required` every property of an answer's component (the serializers write every field
  on every answer; tests/api/test_schema.py checks each component against the answers);
- writes a nullable reference the way strict OpenAPI 3.0 validators accept a null in its place
  (`oneOf` with a null-only schema, not `allOf` beside `nullable`, which they read as "never null");
- marks what a PATCH cannot do without (a member's `role`; at least one field of a game's (name,
  night, casual) or a scorebook's (name, time zone)), and so its body too: the server refuses such a
  PATCH without one (400 naming the field), as docs/api.md has a PATCH change something; a player's PATCH,
  whose fields are all optional, keeps an optional body;
- bounds a round's list of entries (1 to 50).
"""

ERROR = {"$ref": "#/components/schemas/Error"}
VALIDATION_ERRORS = {"$ref": "#/components/schemas/ValidationErrors"}
ROUND_ERRORS = {"$ref": "#/components/schemas/RoundErrors"}
NULL_ONLY = {"type": "object", "nullable": True, "enum": [None], "description": "null"}

VALIDATION_ERRORS_SCHEMA = {
    "type": "object",
    "description": 'The fields that are wrong, each with its messages: `{"name": ["This field is required."]}`. '
    "A nested object's fields (`rules`) and a list's items (`players`, by index) nest the same shape; "
    "`non_field_errors` holds what concerns the whole body; a header or query parameter is named as sent "
    "(`Idempotency-Key`, `page_size`).",
    "additionalProperties": {
        "anyOf": [
            {"type": "array", "items": {"anyOf": [{"type": "string"}, VALIDATION_ERRORS]}},
            VALIDATION_ERRORS,
        ]
    },
}

# Answer components whose properties may be missing from an answer: the error bodies, which say
# only what applies.
PARTIAL = {"RoundErrors", "RoundClash", "ValidationErrors"}

# A PATCH that changes nothing is refused (400): what its body must hold, and so the body itself.
REQUIRED_IN_PATCH = {
    "PatchedMemberRoleRequest": ["role"],
}
# A PATCH of fields none of which is needed alone (a game's name, night or casual, a scorebook's name or
# time zone): at least one of them, and so the body.
ONE_AT_LEAST_IN_PATCH = {"PatchedGameUpdateRequest", "PatchedScorebookPatchRequest"}


def complete_schema(result, generator, request, public):
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["ValidationErrors"] = VALIDATION_ERRORS_SCHEMA
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if isinstance(operation, dict) and "responses" in operation:
                _type_bad_request(operation["responses"])
    answers = _reached(schemas, [op.get("responses", {}) for op in _operations(result)])
    asked = _reached(schemas, [op.get("requestBody", {}) for op in _operations(result)])
    for name in answers - asked - PARTIAL:
        component = schemas[name]
        if component.get("type") == "object" and component.get("properties"):
            component["required"] = list(component["properties"])
    for name, fields in REQUIRED_IN_PATCH.items():
        schemas[name]["required"] = fields
    for name in ONE_AT_LEAST_IN_PATCH:
        schemas[name]["minProperties"] = 1
    for operation in _operations(result):
        body = operation.get("requestBody", {})
        if set(_refs(body)) & (set(REQUIRED_IN_PATCH) | ONE_AT_LEAST_IN_PATCH):
            body["required"] = True
    _list_bounds(schemas)
    _nullable_references(result)
    return result


def _list_bounds(schemas: dict) -> None:
    """A list of entries is bounded as the serializer bounds it (drf-spectacular leaves a nested
    serializer's many=True unbounded): an empty one is a 400."""
    from .serializers import RoundWriteSerializer

    entries = RoundWriteSerializer().fields["entries"]
    for name in ("RoundWriteRequest", "RoundCreateRequest"):
        schemas[name]["properties"]["entries"] |= {"minItems": 1, "maxItems": entries.max_length}


def _operations(result):
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if isinstance(operation, dict):
                yield operation


def _type_bad_request(responses: dict) -> None:
    """Every 400 says its body: a round's RoundErrors (or, from the middleware, the other two)."""
    bad = responses.get("400")
    if bad is None:
        return
    content = bad.get("content", {}).get("application/json", {}).get("schema")
    first = [ROUND_ERRORS] if content == ROUND_ERRORS else []
    bad["content"] = {"application/json": {"schema": {"anyOf": [*first, ERROR, VALIDATION_ERRORS]}}}
    if first:
        bad["description"] = (
            "A round that breaks a rule or is malformed, or asks to be confirmed: `RoundErrors`. A NUL anywhere: "
            "`ValidationErrors` naming where; a body that is not JSON: `Error`."
        )
    else:
        bad["description"] = (
            "The request is wrong whatever the state: `ValidationErrors` names each field (a header or query "
            "parameter by its name, a NUL anywhere by where it is); a body that is not JSON: `Error`."
        )


def _refs(node):
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"].rsplit("/", 1)[-1]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _reached(schemas: dict, roots: list) -> set[str]:
    """The components reached from these parts of the operations, following references."""
    seen: set[str] = set()
    todo = [name for root in roots for name in _refs(root)]
    while todo:
        name = todo.pop()
        if name not in seen and name in schemas:
            seen.add(name)
            todo.extend(_refs(schemas[name]))
    return seen


def _nullable_references(node) -> None:
    """`{"allOf": [{"$ref": X}], "nullable": true, ...}` becomes `{"oneOf": [{"$ref": X}, NULL_ONLY], ...}`."""
    if isinstance(node, dict):
        all_of = node.get("allOf")
        if node.get("nullable") and isinstance(all_of, list) and len(all_of) == 1 and "$ref" in all_of[0]:
            del node["allOf"], node["nullable"]
            node["oneOf"] = [all_of[0], dict(NULL_ONLY)]
        for value in node.values():
            _nullable_references(value)
    elif isinstance(node, list):
        for value in node:
            _nullable_references(value)
