"""The documentation keeps its promises: the README's example runs as written, offline; the
real-models example names what LightRAG really exports; links point at files the repository
ships, and no page cites a file it does not."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO_ROOT

README = REPO_ROOT / "README.md"
PAGES = [README, REPO_ROOT / "env.example", *sorted((REPO_ROOT / "docs").rglob("*.md"))]
PAGES += [REPO_ROOT / "benchmarks" / "README.md"]
_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
_CODE_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def readme_example() -> str:
    section = README.read_text(encoding="utf-8").split("## A complete example", 1)[1]
    return _CODE_BLOCK.search(section).group(1)


@pytest.mark.e2e
def test_the_readme_example_runs_as_written_offline(tmp_path) -> None:
    script = tmp_path / "example.py"
    script.write_text(readme_example(), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    # What a user sees: its two results, and the insert's progress line on stderr; no log
    # line of LightRAG's steps, no warning.
    lines = done.stdout.splitlines()
    assert lines == [
        "['cold-store-safety-standard.docx: inserted (P, 7 chunks)']",
        # The chunk that holds the answer: section 6 and the References after it.
        "6 Incident reporting 事故报告 – References",
    ]
    assert done.stderr.splitlines() == [
        "[########################] 1/1 cold-store-safety-standard.docx: inserted (P, 7 chunks)"
    ]
    # Storages were finalised: what was inserted is on disk.
    assert (tmp_path / "rag_storage" / "kv_store_text_chunks.json").stat().st_size > 0


def test_the_real_models_example_uses_lightrags_own_bindings() -> None:
    source = (REPO_ROOT / "examples" / "real_models.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }
    assert ("lightrag.llm.openai", "openai_embed") in imported
    assert ("lightrag.llm.ollama", "ollama_model_complete") in imported
    # Every name it imports from LightRAG exists there (read from the source: importing
    # lightrag.llm.ollama would install the ollama client).
    import lightrag

    root = Path(lightrag.__file__).parent
    for module, name in imported:
        if module.startswith("lightrag."):
            path = root.joinpath(*module.split(".")[1:]).with_suffix(".py")
            defined = {
                node.name
                for node in ast.parse(path.read_text(encoding="utf-8")).body
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            }
            assert name in defined, f"{module} has no {name}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_pages_link_only_to_files_the_repository_ships(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    prose = re.sub(r"`[^`\n]*`", "", text)  # Markdown shown as code is no link
    for target in _LINK.findall(prose):
        if "://" in target or target.startswith("mailto:"):
            continue
        assert (page.parent / target).exists(), f"{page.name} links to missing {target}"
    assert "shared/spec" not in text and "../shared" not in text.replace("../shared/corpus", ""), (
        f"{page.name} cites a file outside the repository"
    )
    outside = re.search(r"\b(spec|facts) §", text)
    assert not outside, f"{page.name} cites sections of an outside spec"
