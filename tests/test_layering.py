"""The package's layers (docs/architecture.md): data flows one way, docx -> blocks -> chunks
-> LightRAG, so a module imports only from its own layer or lower ones, parsing and chunking
never import each other, and only the integration, the evaluation (which runs LightRAG's own
chunkers and parser as contenders) and the command line import LightRAG."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from helpers import REPO_ROOT

PACKAGE = REPO_ROOT / "lightrag_pchunk"

#: Lower number = lower layer. parse and chunk sit side by side.
LAYERS = {
    "model": 0,
    "tokens": 0,
    "encodings": 0,
    "token_seams": 0,
    "errors": 0,
    "naming": 0,
    "wording": 0,
    "work_budget": 0,
    "version": 0,
    "blockfile": 1,
    "outline": 1,
    "parse": 2,
    "markdown": 2,
    "pdf": 2,
    "chunk": 2,
    "integration": 3,
    "eval": 3,
    "cli": 4,
}
MAY_IMPORT_LIGHTRAG = {"integration", "eval", "cli"}
#: The parsers: Markdown and PDF reuse the .docx parser's writer; none may use the chunker.
PARSERS = {"parse", "markdown", "pdf"}


def _subpackage(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "lightrag_pchunk" or len(parts) < 2:
        return None
    return parts[1]


def _imports(path: Path) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return found


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" or p.parent != PACKAGE)


def test_every_module_belongs_to_a_layer() -> None:
    for path in MODULES:
        top = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        if top == "examples":
            continue
        assert top in LAYERS, f"{path} is in no layer of tests/test_layering.py"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_imports_follow_the_layers(path: Path) -> None:
    top = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
    if top == "examples":
        return
    own = LAYERS[top]
    for module in _imports(path):
        root = module.split(".")[0]
        if root == "lightrag":
            assert top in MAY_IMPORT_LIGHTRAG, f"{path} imports {module}"
        sub = _subpackage(module)
        if sub is None or sub == top:
            continue
        assert sub in LAYERS, f"{path} imports unknown {module}"
        assert LAYERS[sub] <= own, f"{path} ({top}) imports the higher layer {module}"
        pair = {top, sub}
        assert not ("chunk" in pair and pair & PARSERS), f"{path} couples parsing and chunking"


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _module_imports(path: Path, known: set[str]) -> set[str]:
    """The package's modules ``path`` imports anywhere (a function's late import too):
    ``from a.b import c`` names module ``a.b.c`` when there is one, else ``a.b``."""
    found = set(_imports(path))
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {module for module in found if module in known} - {_module_name(path)}


def import_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import cycle of ``graph`` (module -> the modules it imports), as the modules along
    it back to the first, or None."""
    done: set[str] = set()

    def cycle_from(name: str, trail: list[str]) -> list[str] | None:
        if name in trail:
            return [*trail[trail.index(name) :], name]
        if name in done:
            return None
        for imported in sorted(graph.get(name, ())):
            found = cycle_from(imported, [*trail, name])
            if found:
                return found
        done.add(name)
        return None

    return next(filter(None, (cycle_from(name, []) for name in sorted(graph))), None)


def package_imports() -> dict[str, set[str]]:
    """Every module of the package and the package's modules it imports: statically, and
    the parse functions the format registry imports by name when a file is parsed."""
    from lightrag_pchunk.integration.formats import FORMATS

    names = {_module_name(path): path for path in MODULES}
    graph = {name: _module_imports(path, set(names)) for name, path in names.items()}
    registry = graph["lightrag_pchunk.integration.formats"]
    registry.update(fmt.parser.partition(":")[0] for fmt in FORMATS)
    return graph


def test_no_two_modules_import_each_other() -> None:
    """No import cycle, however long: each module can be read knowing only those below it."""
    cycle = import_cycle(package_imports())
    assert cycle is None, " -> ".join(cycle)


def test_the_cycle_check_finds_a_cycle_however_long(tmp_path: Path) -> None:
    assert import_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert import_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
    # A late import, inside a function, is an import too.
    module = tmp_path / "late.py"
    module.write_text("def f():\n    from lightrag_pchunk.model import Block\n")
    assert _imports(module) == ["lightrag_pchunk.model"]


def test_the_format_registry_imports_every_parser() -> None:
    registry = package_imports()["lightrag_pchunk.integration.formats"]
    assert "lightrag_pchunk.parse.document" in registry
