"""docs/api.md is the API's guide and cannot drift from it: its table "Every operation" lists
exactly the operations (method and path) of the OpenAPI schema, and nothing in the repository sends
a reader to papers outside it."""

import functools
import re
import subprocess
from pathlib import Path

from drf_spectacular.generators import SchemaGenerator

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "api.md"
METHODS = ("get", "post", "put", "patch", "delete")
ROW = re.compile(r"^\| `(GET|POST|PUT|PATCH|DELETE) (/\S+)` \|", re.MULTILINE)


@functools.cache
def schema_operations() -> set[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {(method.upper(), path) for path, item in schema["paths"].items() for method in item if method in METHODS}


def guide_operations() -> list[tuple[str, str]]:
    return ROW.findall(GUIDE.read_text(encoding="utf-8"))


def test_every_operation_of_the_schema_is_listed_in_the_api_guide():
    missing = schema_operations() - set(guide_operations())
    assert not missing, (
        "docs/api.md, 'Every operation', lacks these operations of the schema (add a row and an example): "
        + ", ".join(f"{method} {path}" for method, path in sorted(missing, key=lambda op: (op[1], op[0])))
    )


def test_the_api_guide_lists_no_operation_the_schema_does_not_have_and_none_twice():
    listed = guide_operations()
    assert len(listed) >= 50, "the table 'Every operation' should be read from docs/api.md"
    assert len(listed) == len(set(listed)), [op for op in listed if listed.count(op) > 1]
    assert not set(listed) - schema_operations()


def test_each_row_of_the_guide_points_to_a_section_of_it_that_exists():
    text = GUIDE.read_text(encoding="utf-8")
    sections = set(re.findall(r"^## (\d+)\. ", text, re.MULTILINE))
    rows = re.findall(r"^\| `[A-Z]+ \S+` \| [^|]+ \| (\d+) \|$", text, re.MULTILINE)
    assert len(rows) == len(guide_operations())
    assert set(rows) <= sections, set(rows) - sections


def test_nothing_in_the_repository_sends_a_reader_to_papers_outside_it():
    outside = "../" + "shared"  # spelled in two so that this file does not find itself
    contract = "shared/" + "API.md"
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    found = []
    for name in files:
        if not name.endswith((".py", ".md", ".html", ".js", ".txt", ".toml", ".po", ".cfg", ".yml", ".yaml")):
            continue
        path = ROOT / name
        if not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if outside in line or contract in line:
                found.append(f"{name}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
