"""The rooms of scorekeeper/ (docs/architecture.md): no import circle anywhere, and the lower rooms
never use the higher ones. Read from the code's own import statements, those inside functions too."""

import ast
from pathlib import Path

import scorekeeper

ROOT = Path(scorekeeper.__file__).parent
# What each lower room may not import (the rooms above it).
FORBIDDEN = {
    "rules": ("models", "caches", "services", "selectors", "reads", "views", "api", "http"),
    "models": ("caches", "services", "selectors", "reads", "views", "api", "http"),
    "caches": ("services", "selectors", "reads", "views", "api", "http"),
    "services": ("selectors", "reads", "views", "api", "http"),
    "selectors": ("reads", "views", "api", "http"),
    "reads": ("views", "api", "http"),
    # the vision room is pure like rules/: nothing of ours but rules/ (tests/vision checks no Django)
    "vision": ("models", "caches", "services", "selectors", "reads", "views", "api", "http", "forms", "transfer"),
}


def _module(path: Path) -> str:
    parts = ["scorekeeper", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Each module of scorekeeper/ and the modules of scorekeeper/ it imports."""
    modules = {_module(path): path for path in ROOT.rglob("*.py") if "migrations" not in path.parts}
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(node.level - 1):
                    base = base.rsplit(".", 1)[0]
                target = node.module or ""
                target = f"{base}.{target}".rstrip(".") if node.level else target
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    found.add(full if full in modules else target)
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
        graph[name] = {target for target in found if target in modules and target != name}
    return graph


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_no_module_of_scorekeeper_is_part_of_an_import_circle():
    graph, circles = _imports(), []
    state = {}

    def visit(node, path):
        state[node] = "open"
        for target in sorted(graph[node]):
            if state.get(target) == "open":
                circles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert circles == [], circles


def test_the_lower_rooms_never_import_the_higher_ones():
    wrong = [
        f"{module} imports {target}"
        for module, targets in _imports().items()
        for target in targets
        if _room(target) in FORBIDDEN.get(_room(module), ())
    ]
    assert wrong == [], wrong
