"""Every command the README and docs/*.md show runs as written, or is excused here with why.

What counts as a command:

1. **Shell lines**: every line of a fenced ``bash``, ``sh``, ``shell`` or ``console`` block
   (a trailing ``\\`` joins the next line; a ``# …`` comment and a ``$ `` prompt are dropped).
   The lines of one block run in order in one shell, in a folder holding the files the docs
   name (``report.docx``, ``memo.[native-R].docx``, ``docs/``, ``contracts/``: copies of the
   bundled example and a small Markdown file) and the ``rag_storage/`` that the documented
   ``ingest`` of ``report.docx`` makes, with this checkout's ``lightrag-pchunk`` first on the
   PATH. Each must exit 0, unless :data:`EXCUSED` says why it is not run.
2. **Inline commands**: every inline code span that starts with ``lightrag-pchunk`` or
   ``python -m`` (the command tables and the prose). A span with placeholders (a word in
   capitals such as ``FILE``, ``…``, ``[``, ``<``) or naming only a sub-command is a
   synopsis: its sub-command must exist, take every ``--option`` it shows, and show the
   options the sub-command requires. A span without placeholders and with arguments is run
   like a shell line.

Other inline code (``pip install …``, ``lightrag-server``) names a tool, it is not a command
to copy. The whole test takes about 30 s (each command starts LightRAG in a new process; the
inputs are the bundled example, so nothing grows with the corpus).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from lightrag_pchunk.cli.demo_cmd import example_path
from lightrag_pchunk.cli.main import build_parser

from helpers import REPO_ROOT

PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").rglob("*.md"))]
SHELL_LANGUAGES = {"bash", "sh", "shell", "console"}
_FENCE = re.compile(r"^( *)```(\w*)[^\n]*\n(.*?)^\1```", re.S | re.M)
_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]*[A-Z]\b|…|\.\.\.|[\[<|]")

#: Commands not run, by how they start, and why (a new documented command is either run or
#: added here on purpose).
EXCUSED = {
    "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/lightrag-pchunk demo": (
        "makes a virtual environment and downloads every dependency from PyPI (network,"
        " minutes); test_the_package_installs_from_a_built_wheel_and_runs_the_demo does the"
        " same offline from a wheel of this checkout"
    ),
    "python3 -m venv .venv && .venv/bin/pip install -q -e": (
        "the test suite itself (.ci/run runs this line verbatim)"
    ),
    "pip install": "installs from a package registry (network)",
    "lightrag-pchunk serve": (
        "starts LightRAG's API server, which runs until stopped; tests/integration/"
        "test_server.py runs it, tests/cli/test_rough_edges.py its start-up"
    ),
    "lightrag-pchunk ingest --working-dir rag_storage --rag-factory myapp.rag:make_rag": (
        "myapp.rag:make_rag is the docs' example factory with OpenAI's models (an API key and"
        " the network)"
    ),
    "lightrag-pchunk eval ../shared/corpus/docx ../shared/corpus/md": (
        "the whole test corpus (about 4 minutes); tests/corpus/ checks the corpus"
    ),
    "psql": (
        "needs a PostgreSQL server with the registry table (tests/integration/test_postgres.py)"
    ),
}


@dataclass(frozen=True, slots=True)
class Command:
    """One documented command: where it is written, and the text to run."""

    page: str
    line: int
    text: str
    block: int  # lines of one fenced block share a shell; inline commands have their own

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.text}"


def _relative(page: Path) -> str:
    return str(page.relative_to(REPO_ROOT))


def shell_lines(page: Path) -> list[Command]:
    """The commands of the fenced shell blocks of ``page``, in order."""
    text = page.read_text(encoding="utf-8")
    found: list[Command] = []
    for block, match in enumerate(_FENCE.finditer(text)):
        if match.group(2) not in SHELL_LANGUAGES:
            continue
        first = text[: match.start(3)].count("\n") + 1
        pending, start = "", first
        for number, raw in enumerate(match.group(3).splitlines(), start=first):
            line = raw.strip()
            if not pending:
                start = number
                line = line.removeprefix("$ ")
            if line.endswith("\\"):
                pending += line[:-1].rstrip() + " "
                continue
            command = _without_comment(pending + line).strip()
            pending = ""
            if command:
                found.append(Command(_relative(page), start, command, block))
    return found


def _without_comment(line: str) -> str:
    """``line`` without a trailing ``# comment`` (a ``#`` inside quotes is kept)."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index]
    return line


def inline_commands(page: Path) -> list[Command]:
    """The inline code spans of ``page`` that are commands (module doc, rule 2)."""
    text = page.read_text(encoding="utf-8")
    prose = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    found = []
    for match in _SPAN.finditer(prose):
        span = match.group(1).replace("\\|", "|").strip()
        if span.startswith(("lightrag-pchunk", "python -m ")):
            line = prose[: match.start()].count("\n") + 1
            found.append(Command(_relative(page), line, span, -line))
    return found


SHELL = [command for page in PAGES for command in shell_lines(page)]
INLINE = [command for page in PAGES for command in inline_commands(page)]


def excuse(command: Command) -> str | None:
    """Why ``command`` is not run (None: it is)."""
    for start, why in EXCUSED.items():
        if command.text.startswith(start):
            return why
    return None


def is_synopsis(command: Command) -> bool:
    """An inline command with placeholders, or naming only a sub-command."""
    words = command.text.split()
    bare = command.text.startswith("lightrag-pchunk") and len(words) <= 2
    return bare or _PLACEHOLDER.search(command.text) is not None


RUN = [c for c in [*SHELL, *(c for c in INLINE if not is_synopsis(c))] if excuse(c) is None]
SYNOPSES = [c for c in INLINE if c.text.startswith("lightrag-pchunk")]


def test_the_docs_show_commands_and_every_excuse_is_still_used() -> None:
    assert len(SHELL) >= 15 and len(SYNOPSES) >= 20
    used = {start for start in EXCUSED for c in [*SHELL, *INLINE] if c.text.startswith(start)}
    assert used == set(EXCUSED), f"excuses no documented command needs: {set(EXCUSED) - used}"


# --- the world the documented commands run in ------------------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """A folder with the files the docs' commands name, and a ``rag_storage`` that the
    documented ``ingest`` of ``report.docx`` made (the troubleshooting page reads it)."""
    folder = tmp_path_factory.mktemp("docs-world")
    shutil.copy(example_path(), folder / "report.docx")
    # Every other file has a text of its own: LightRAG refuses a second copy of a text.
    _example_of_its_own(folder / "docs" / "standard.docx")
    for name in ("memo.[native-R].docx", "contracts/lease.docx", "docs/contracts/supply.docx"):
        _small_document(folder / name)
    (folder / "docs" / "guide.md").write_text(
        "# Guide\n\n## Start\n\nPress the green button to start the pump.\n", encoding="utf-8"
    )
    done = run_in(folder, "lightrag-pchunk ingest --working-dir rag_storage --no-llm report.docx")
    assert done.returncode == 0, done.stderr[-3000:]
    return folder


def _example_of_its_own(path: Path) -> None:
    """The bundled example (questions for ``eval``) with a closing line no other file has."""
    from docx import Document

    path.parent.mkdir(parents=True, exist_ok=True)
    document = Document(str(example_path()))
    document.add_paragraph("This copy is kept with the site's documents.")
    document.save(str(path))


def _small_document(path: Path) -> None:
    """A short Word document of its own (LightRAG refuses a second copy of a text)."""
    from docx import Document

    path.parent.mkdir(parents=True, exist_ok=True)
    document = Document()
    document.add_heading(f"{path.stem} terms", level=1)
    document.add_paragraph(f"This {path.stem} runs for twelve months from the day it is signed.")
    document.save(str(path))


def _environment() -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CHUNK_", "LIGHTRAG_", "DOCX_", "POSTGRES_"))
    }
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(REPO_ROOT)  # this checkout's package, as `pip install -e` gives
    return env


def run_in(folder: Path, script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", script],
        cwd=folder,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _blocks() -> list[list[Command]]:
    """The commands to run, grouped by the shell they share (one fenced block)."""
    groups: dict[tuple[str, int], list[Command]] = {}
    for command in RUN:
        groups.setdefault((command.page, command.block), []).append(command)
    return list(groups.values())


@pytest.mark.parametrize("block", _blocks(), ids=lambda b: f"{b[0].page}:{b[0].line}")
def test_the_documented_commands_run_as_written(world, block: list[Command]) -> None:
    missing = sorted({_program(c.text) for c in block} - {"export"} - _programs())
    if missing:
        pytest.skip(f"not installed here: {', '.join(missing)}")
    exports = [c.text for c in block if c.text.startswith("export ")]
    for command in block:
        if command.text.startswith("export "):
            continue
        done = run_in(world, "\n".join([*exports, command.text]))
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
        assert done.stdout.strip() or done.stderr.strip(), f"{command} printed nothing"


def _program(command: str) -> str:
    """The program a shell line runs: its first word after any ``NAME=value`` assignments."""
    words = command.split()
    return next((w for w in words if not re.match(r"[A-Za-z_][A-Za-z0-9_]*=", w)), words[0])


def _programs() -> set[str]:
    names = {"lightrag-pchunk", "python", "ls", "head"}
    return names | {name for name in ("jq",) if shutil.which(name)}


# --- synopses ---------------------------------------------------------------------------


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(actions[0].choices)


def _required(parser: argparse.ArgumentParser) -> list[set[str]]:
    """The options a sub-command requires: each a set of which any one will do."""
    needed = [
        set(action.option_strings)
        for action in parser._actions
        if action.required and action.option_strings
    ]
    for group in parser._mutually_exclusive_groups:
        if group.required:
            needed.append({o for action in group._group_actions for o in action.option_strings})
    return needed


@pytest.mark.parametrize("command", SYNOPSES, ids=str)
def test_every_synopsis_names_a_command_and_its_options(command: Command) -> None:
    words = command.text.split()[1:]
    while words and words[0].startswith("-"):  # options of lightrag-pchunk itself (-vv)
        words.pop(0)
    if not words:
        return
    parsers = _subcommands()
    assert words[0] in parsers, f"{command}: no sub-command {words[0]!r}"
    parser = parsers[words[0]]
    known = {option for action in parser._actions for option in action.option_strings}
    shown = set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", " ".join(words[1:])))
    if words[0] == "serve":  # lightrag-server's own options pass through
        shown = {option for option in shown if option in known}
    assert shown <= known, f"{command}: {words[0]} takes no {sorted(shown - known)}"
    if len(words) > 1 and "…" not in words:  # a synopsis shows what the command requires
        for options in _required(parser):
            assert options & shown, f"{command}: {words[0]} requires one of {sorted(options)}"


# --- the install line, offline -----------------------------------------------------------


def test_the_package_installs_from_a_built_wheel_and_runs_the_demo(tmp_path) -> None:
    """The README's first line without the network: a wheel built from this checkout
    (setuptools, no build isolation), installed without dependencies into a fresh virtual
    environment that sees the test environment's packages, runs ``lightrag-pchunk demo``
    from its own ``bin``: the console script, the bundled example and every module ship."""
    # A copy, as a fresh clone has it: building writes build/ and *.egg-info into the tree.
    checkout = tmp_path / "checkout"
    shutil.copytree(REPO_ROOT, checkout, ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", "*.egg-info", "build", "dist", ".*_cache",
        ".hypothesis", ".work",
    ))  # fmt: skip
    env = {k: v for k, v in _environment().items() if k != "PYTHONPATH"}
    wheels = tmp_path / "dist"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", str(wheels), str(checkout)],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr[-3000:]
    [wheel] = wheels.glob("lightrag_pchunk-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "--no-deps", "--no-index", "-q", str(wheel)],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr[-3000:]
    # Then the test environment's packages (LightRAG and the rest), behind the wheel's own
    # (written after the install, so pip does not take this checkout's for installed).
    site = next(venv.glob("lib/python*/site-packages"))
    deps = [p for p in sys.path if p.endswith("site-packages")]
    (site / "test-environment.pth").write_text("\n".join(deps) + "\n", encoding="utf-8")
    demo = subprocess.run(
        [str(venv / "bin" / "lightrag-pchunk"), "demo"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert demo.returncode == 0, demo.stdout[-2000:] + demo.stderr[-2000:]
    assert "Demo passed" in demo.stdout
    inspect = subprocess.run(
        [str(venv / "bin" / "lightrag-pchunk"), "inspect", str(example_path())],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    report = tmp_path / "cold-store-safety-standard.inspect.html"
    assert inspect.returncode == 0 and report.is_file(), inspect.stderr[-2000:]
    assert "lightragPchunkPart" in report.read_text(encoding="utf-8")  # its script ships
    probe = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "import lightrag_pchunk; print(lightrag_pchunk.__file__)"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert probe.stdout.startswith(str(site)), "the demo did not run the installed wheel"
