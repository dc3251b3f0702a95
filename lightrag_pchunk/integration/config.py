"""P's settings (size, overlap, drops, table text, fill) with LightRAG 1.5.7's precedence,
and the readers of every value ``settings.resolve`` takes from the environment.

Sources, highest first (docs/configuration.md, as LightRAG 1.5.7 orders them): values passed
as arguments (a command's ``--size`` / ``--overlap``, the options LightRAG passes its P
chunker), a LIGHTRAG_PARSER rule or file-name hint ``P(...)`` block, an explicit
per-document ``chunk_options`` snapshot, ``addon_params["chunker"]["paragraph_semantic"]``,
the CHUNK_P_* variables, the constructor's overlap, CHUNK_OVERLAP_SIZE, and the defaults
2000 / 100. The P size never inherits CHUNK_SIZE or the constructor's chunk_token_size.
Unlike LightRAG, a bad value is refused with a ValueError naming the setting, where it came
from and the value, instead of being clamped. The reference-detection knobs are read on
every run (``reference_settings``). ``drop_toc`` (``CHUNK_P_DROP_TOC``,
``addon_params[...]["drop_toc"]``) is ours: LightRAG's rule grammar has no such ``P(...)``
key, so it is not read from rules or hints. ``table_text`` (``CHUNK_P_TABLE_TEXT``,
``addon_params[...]["table_text"]``: ``grid`` or ``keyed``, how tables read in chunks) and
``fill`` (``CHUNK_P_FILL``, ``addon_params[...]["fill"]``: ``sections``, ``chapter`` or
``pack``, how far stage D fills a chunk) are ours too, resolved the same way.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lightrag_pchunk.chunk.context import DEFAULT_FILL, FILLS
from lightrag_pchunk.chunk.table_text import TABLE_TEXTS
from lightrag_pchunk.integration.params import PARAGRAPH_SEMANTIC, parse_bool
from lightrag_pchunk.integration.routing import Directives
from lightrag_pchunk.model import MIN_CHUNK_TOKEN_SIZE

logger = logging.getLogger("lightrag.pchunk")

DEFAULT_P_SIZE = 2000
DEFAULT_OVERLAP = 100
DEFAULT_REFERENCES_TAIL_N = 0
"""0 scans every content block for a references heading (LightRAG 1.5.5+)."""
DEFAULT_REFERENCES_HEADINGS = ("References", "Bibliography", "参考文献")

SIZE_ENV = "CHUNK_P_SIZE"
P_OVERLAP_ENV = "CHUNK_P_OVERLAP_SIZE"
OVERLAP_ENV = "CHUNK_OVERLAP_SIZE"
DROP_REFERENCES_ENV = "CHUNK_P_DROP_REFERENCES"
DROP_TOC_ENV = "CHUNK_P_DROP_TOC"
TABLE_TEXT_ENV = "CHUNK_P_TABLE_TEXT"
FILL_ENV = "CHUNK_P_FILL"
TAIL_N_ENV = "CHUNK_P_REFERENCES_TAIL_N"
HEADINGS_ENV = "CHUNK_P_REFERENCES_HEADINGS"

SIZE, OVERLAP, DROP = "chunk_token_size", "chunk_overlap_token_size", "drop_references"
DROP_TOC = "drop_toc"
TABLE_TEXT = "table_text"
#: How tables read in chunks when nothing is configured (chosen by retrieval per LLM call
#: on the corpus: benchmarks/results, docs/chunking.md "Table text").
DEFAULT_TABLE_TEXT = "grid"
FILL = "fill"
#: Set it to re-raise unexpected errors of the P stages and of one file's ingestion instead
#: of falling back (the test suite does, so a bug cannot hide behind the fallback).
STRICT_ENV = "LIGHTRAG_PCHUNK_STRICT"


@dataclass(frozen=True, slots=True)
class PSettings:
    """The P parameters for one document, and where each value came from."""

    chunk_token_size: int = DEFAULT_P_SIZE
    chunk_overlap_token_size: int = DEFAULT_OVERLAP
    drop_references: bool = False
    sources: Mapping[str, str] = field(default_factory=dict)
    drop_toc: bool = False
    table_text: str = DEFAULT_TABLE_TEXT
    fill: str = DEFAULT_FILL

    def describe(self) -> str:
        """For a log line: ``size=2000 (default) overlap=20 (CHUNK_P_OVERLAP_SIZE (env)) ...``."""
        return " ".join(
            f"{key}={getattr(self, attr)} ({self.sources.get(attr, 'default')})"
            for key, attr in (
                ("size", SIZE), ("overlap", OVERLAP), ("drop_references", DROP),
                ("drop_toc", DROP_TOC), ("table_text", TABLE_TEXT), ("fill", FILL),
            )
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The stored form (a registration's frozen snapshot)."""
        return {
            SIZE: self.chunk_token_size, OVERLAP: self.chunk_overlap_token_size,
            DROP: self.drop_references, DROP_TOC: self.drop_toc, TABLE_TEXT: self.table_text,
            FILL: self.fill, "sources": dict(self.sources),
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PSettings:
        """Read the stored form (raises KeyError/TypeError/ValueError when malformed); keys a
        registration of an older version lacks take their defaults."""
        return cls(
            chunk_token_size=int(data[SIZE]),
            chunk_overlap_token_size=int(data[OVERLAP]),
            drop_references=bool(data.get(DROP, False)),
            sources=dict(data.get("sources") or {}),
            drop_toc=bool(data.get(DROP_TOC, False)),
            table_text=str(data.get(TABLE_TEXT) or DEFAULT_TABLE_TEXT),
            fill=str(data.get(FILL) or DEFAULT_FILL),
        )


def is_unset(raw: str | None) -> bool:
    """Unset, empty, whitespace or the literal None mean "use the default" (LightRAG 1.5.5+)."""
    return raw is None or not raw.strip() or raw.strip().lower() == "none"


def env_int(env: Mapping[str, str], name: str, minimum: int) -> tuple[int, str] | None:
    """An integer variable as ``(value, source)``, or None when unset (``ValueError``: not an
    integer >= ``minimum``)."""
    raw = env.get(name)
    if is_unset(raw):
        return None
    assert raw is not None
    source = f"{name} (env)"
    try:
        value = int(raw.strip())
    except ValueError:
        raise ValueError(f"{source} must be an integer, got {raw!r}") from None
    return _at_least(value, minimum, source), source


def _at_least(value: int, minimum: int, source: str) -> int:
    if value < minimum:
        raise ValueError(f"{source} must be >= {minimum}, got {value}")
    return value


def as_int(value: Any, minimum: int, source: str, *, text: bool = True) -> int:
    """An int, or (``text``) a string holding one (LightRAG int()s configured values; an
    argument must be an int); never bool or float."""
    if text and isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise ValueError(f"{source} must be an integer, got {value!r}") from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{source} must be an integer, got {value!r}")
    return _at_least(value, minimum, source)


def _as_bool(value: Any, source: str, *, text: bool = True) -> bool:
    """A bool, or (``text``) one of LightRAG's boolean words (``params.parse_bool``)."""
    if isinstance(value, bool):
        return value
    flag = parse_bool(value) if text and isinstance(value, str) else None
    if flag is not None:
        return flag
    raise ValueError(f"{source} must be a boolean (true/false), got {value!r}")


def is_strict(env: Mapping[str, str] | None = None) -> bool:
    """``LIGHTRAG_PCHUNK_STRICT``: set to anything but a false word (``0``, ``false``, ...)."""
    env = os.environ if env is None else env
    word = (env.get(STRICT_ENV) or "").strip()
    return bool(word) and parse_bool(word) is not False


def p_section(container: Any, path: str) -> Mapping[str, Any]:
    """The ``paragraph_semantic`` sub-dict of a chunker config (absent or None: empty)."""
    if container is None:
        return {}
    if not isinstance(container, Mapping):
        raise ValueError(f"{path} must be a mapping, got {type(container).__name__}")
    section = container.get("paragraph_semantic")
    if section is None:
        return {}
    if not isinstance(section, Mapping):
        raise ValueError(
            f"{path}['paragraph_semantic'] must be a mapping, got {type(section).__name__}"
        )
    return section


def addon_section(addon_params: Any) -> Mapping[str, Any]:
    """``addon_params["chunker"]["paragraph_semantic"]`` (absent or None: empty).

    Raises:
        ValueError: ``addon_params`` or a level of it is not a mapping.
    """
    if addon_params is None:
        return {}
    if not isinstance(addon_params, Mapping):
        raise ValueError(f"addon_params must be a mapping, got {type(addon_params).__name__}")
    return p_section(addon_params.get("chunker"), "addon_params['chunker']")


def _choice(allowed: tuple[str, ...]) -> Callable[[Any, str, bool], str]:
    def read(value: Any, source: str, text: bool) -> str:
        word = value.strip().lower() if isinstance(value, str) else value
        if word not in allowed:
            raise ValueError(f"{source} must be one of {', '.join(allowed)}, got {value!r}")
        return word

    return read


#: Every P setting: key (attribute, addon_params and chunk_options key) -> (the reader that
#: checks a value, given where it came from and whether it may be text; its variable; its
#: default).
_KEYS: dict[str, tuple[Callable[[Any, str, bool], Any], str, Any]] = {
    SIZE: (lambda v, s, t: as_int(v, MIN_CHUNK_TOKEN_SIZE, s, text=t), SIZE_ENV, DEFAULT_P_SIZE),
    OVERLAP: (lambda v, s, t: as_int(v, 0, s, text=t), P_OVERLAP_ENV, DEFAULT_OVERLAP),
    DROP: (lambda v, s, t: _as_bool(v, s, text=t), DROP_REFERENCES_ENV, False),
    DROP_TOC: (lambda v, s, t: _as_bool(v, s, text=t), DROP_TOC_ENV, False),
    TABLE_TEXT: (_choice(TABLE_TEXTS), TABLE_TEXT_ENV, DEFAULT_TABLE_TEXT),
    FILL: (_choice(FILLS), FILL_ENV, DEFAULT_FILL),
}


#: One source of dict-shaped values: (values, key-path prefix, labels per key, whether a
#: value may be text, as in configuration, or must be typed, as an argument).
_Tier = tuple[Mapping[str, Any], str, Mapping[str, str], bool]


def _tiers(
    explicit: Mapping[str, tuple[Any, str]] | None,
    rule_params: Any,
    chunk_options: Any,
    addon_params: Any,
) -> list[_Tier]:
    """The dict-shaped sources, highest first."""
    tiers: list[_Tier] = []
    if explicit:
        values = {key: value for key, (value, _) in explicit.items()}
        tiers.append((values, "", {key: label for key, (_, label) in explicit.items()}, False))
    if rule_params is not None:
        # A resolved Directives carries the P block and which rule or hint set each key.
        labels: Mapping[str, str] = {}
        if isinstance(rule_params, Directives):
            labels = {
                key: rule_params.source_text(source)
                for key, source in rule_params.params_source.get(PARAGRAPH_SEMANTIC, {}).items()
            }
            rule_params = rule_params.p_params
        if not isinstance(rule_params, Mapping):
            raise ValueError(f"rule_params must be a mapping, got {type(rule_params).__name__}")
        unknown = sorted(set(rule_params) - {SIZE, OVERLAP, DROP})
        if unknown:
            raise ValueError(
                f"rule_params has unknown parameter(s) {', '.join(map(repr, unknown))}; "
                f"supported: {SIZE}, {OVERLAP}, {DROP}"
            )
        labels = labels or {key: f"rule/hint block P({key}=...)" for key in (SIZE, OVERLAP, DROP)}
        tiers.append((rule_params, "P(...)", labels, True))
    path = "chunk_options"
    tiers.append((p_section(chunk_options, path), f"{path}['paragraph_semantic']", {}, True))
    path = "addon_params['chunker']['paragraph_semantic']"
    tiers.append((addon_section(addon_params), path, {}, True))
    return tiers


def resolve_p_settings(
    *,
    addon_params: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    constructor_overlap: int | None = None,
    rule_params: Mapping[str, Any] | Directives | None = None,
    chunk_options: Mapping[str, Any] | None = None,
    explicit: Mapping[str, tuple[Any, str]] | None = None,
) -> PSettings:
    """P's settings for one document, highest source first.

    ``explicit`` holds values passed as arguments, each with where it came from
    (``{"chunk_token_size": (1000, "--size")}``): they win over everything and must be
    typed (an int, a bool).
    ``rule_params`` is the ``P(...)`` block of the resolved rule/hint: a mapping with
    canonical keys, or a ``routing.Directives``. Every value that is set is checked, even
    one a higher source overrides, so a typo never waits for the day it takes effect.

    Raises:
        ValueError: a non-integer, a size < 1, an overlap < 0, a non-boolean
            drop_references, or an effective overlap >= the effective size.
    """
    env = os.environ if env is None else env
    found: dict[str, list[tuple[Any, str]]] = {key: [] for key in _KEYS}
    for values, prefix, labels, text in _tiers(explicit, rule_params, chunk_options, addon_params):
        for key, (read, _, _) in _KEYS.items():
            if values.get(key) is not None:
                source = labels.get(key) or f"{prefix}['{key}']"
                found[key].append((read(values[key], source, text), source))
    for key, (read, variable, _) in _KEYS.items():
        if not is_unset(env.get(variable)):
            source = f"{variable} (env)"
            found[key].append((read(env[variable], source, True), source))
    # The overlap alone has two more sources, below CHUNK_P_OVERLAP_SIZE (LightRAG's overlay).
    if constructor_overlap is not None:
        source = f"LightRAG(chunk_overlap_token_size={constructor_overlap!r})"
        found[OVERLAP].append((as_int(constructor_overlap, 0, source), source))
    shared = env_int(env, OVERLAP_ENV, 0)
    if shared is not None:
        found[OVERLAP].append(shared)
    chosen = {
        key: values[0] if values else (_KEYS[key][2], "default") for key, values in found.items()
    }
    (size, size_source), (overlap, overlap_source) = chosen[SIZE], chosen[OVERLAP]
    if overlap >= size:
        raise ValueError(
            f"P chunk_overlap_token_size ({overlap}, from {overlap_source}) must be < "
            f"chunk_token_size ({size}, from {size_source}); lower the overlap or raise the size"
        )
    return PSettings(
        chunk_token_size=size,
        chunk_overlap_token_size=overlap,
        drop_references=chosen[DROP][0],
        sources={key: source for key, (_, source) in chosen.items()},
        drop_toc=chosen[DROP_TOC][0],
        table_text=chosen[TABLE_TEXT][0],
        fill=chosen[FILL][0],
    )


def _tail_n(raw: object, setting: str) -> int:
    """LightRAG's rule: int(raw); invalid or negative means the default, with a warning."""
    try:
        value = int(raw)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        logger.warning(
            "paragraph_semantic invalid %s=%r; using default %d",
            setting,
            raw,
            DEFAULT_REFERENCES_TAIL_N,
        )
        return DEFAULT_REFERENCES_TAIL_N
    if value < 0:
        logger.warning(
            "paragraph_semantic negative %s=%r; using default %d",
            setting,
            raw,
            DEFAULT_REFERENCES_TAIL_N,
        )
        return DEFAULT_REFERENCES_TAIL_N
    return value


def _split_headings(raw: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in raw.split("|") if part.strip())


def reference_settings(
    tail_n: int | None,
    headings: Sequence[str] | None,
    env: Mapping[str, str] | None = None,
) -> tuple[int, tuple[str, ...]]:
    """The references window and heading prefixes: explicit values, else the live env.

    ``CHUNK_P_REFERENCES_TAIL_N`` (0 = scan all blocks; invalid or negative: 0 with a
    warning, as LightRAG) and ``CHUNK_P_REFERENCES_HEADINGS`` (pipe-separated; set but
    empty means no prefixes, as LightRAG). A string ``headings`` is read pipe-separated.
    """
    env = os.environ if env is None else env
    if tail_n is not None:
        window = _tail_n(tail_n, "references_tail_n")
    elif env.get(TAIL_N_ENV) is not None:
        window = _tail_n(env[TAIL_N_ENV], TAIL_N_ENV)
    else:
        window = DEFAULT_REFERENCES_TAIL_N
    if isinstance(headings, str):
        prefixes = _split_headings(headings)
    elif headings is not None:
        prefixes = tuple(headings)
    elif env.get(HEADINGS_ENV) is not None:
        prefixes = _split_headings(env[HEADINGS_ENV])
    else:
        prefixes = DEFAULT_REFERENCES_HEADINGS
    return window, prefixes
