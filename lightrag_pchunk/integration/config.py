"""P's chunk size, overlap, drop_references and drop_toc, resolved with LightRAG 1.5.7's precedence.

Sources, highest first (facts §4.2): a LIGHTRAG_PARSER rule or file-name hint ``P(...)``
block, an explicit per-document ``chunk_options`` snapshot, ``addon_params["chunker"]
["paragraph_semantic"]``, the CHUNK_P_* variables, the constructor's overlap,
CHUNK_OVERLAP_SIZE, and the defaults 2000 / 100. The P size never inherits CHUNK_SIZE or
the constructor's chunk_token_size. Unlike LightRAG, a bad value is refused with a
ValueError naming the setting, where it came from and the value, instead of being clamped.
The reference-detection knobs are read live by the chunker through ``reference_settings``.
``drop_toc`` (``CHUNK_P_DROP_TOC``, ``addon_params[...]["drop_toc"]``) is ours: LightRAG's rule
grammar has no such ``P(...)`` key, so it is not read from rules or hints. ``table_text``
(``CHUNK_P_TABLE_TEXT``, ``addon_params[...]["table_text"]``: ``grid`` or ``keyed``, how
tables read in chunks) and ``fill`` (``CHUNK_P_FILL``, ``addon_params[...]["fill"]``:
``sections``, ``chapter`` or ``pack``, how far stage D fills a chunk) are ours too, resolved
the same way.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lightrag_pchunk.chunk.context import FILLS, PACK
from lightrag_pchunk.chunk.table_text import TABLE_TEXTS
from lightrag_pchunk.integration.params import PARAGRAPH_SEMANTIC
from lightrag_pchunk.integration.routing import Directives

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
#: ``pack`` by default: on the corpus it makes fewer chunks (LLM calls) than R, about 5% fewer
#: than the spec's ``sections`` phases, with no measurable change in ``eval``'s retrieval
#: (docs/chunking.md "Fill"); ``sections`` and ``chapter`` remain.
DEFAULT_FILL = PACK
#: Settings that are one word of a fixed set: key (attribute and addon_params key) ->
#: (environment variable, default, allowed words).
_CHOICES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    TABLE_TEXT: (TABLE_TEXT_ENV, DEFAULT_TABLE_TEXT, TABLE_TEXTS),
    FILL: (FILL_ENV, DEFAULT_FILL, FILLS),
}
_TRUE_WORDS = frozenset({"1", "true", "yes", "on", "t", "y"})
_FALSE_WORDS = frozenset({"0", "false", "no", "off", "f", "n"})


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


def _is_unset(raw: str | None) -> bool:
    """Unset, empty, whitespace or the literal None mean "use the default" (LightRAG 1.5.5+)."""
    return raw is None or not raw.strip() or raw.strip().lower() == "none"


def _env_int(env: Mapping[str, str], name: str, minimum: int) -> tuple[int, str] | None:
    """An integer variable as ``(value, source)``, or None when unset."""
    raw = env.get(name)
    if _is_unset(raw):
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


def _as_int(value: Any, minimum: int, source: str) -> int:
    """An int, or a string holding one (LightRAG int()s these values); never bool or float."""
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise ValueError(f"{source} must be an integer, got {value!r}") from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{source} must be an integer, got {value!r}")
    return _at_least(value, minimum, source)


def _as_bool(value: Any, source: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE_WORDS | _FALSE_WORDS:
        return value.strip().lower() in _TRUE_WORDS
    raise ValueError(f"{source} must be a boolean (true/false), got {value!r}")


def _p_section(container: Any, path: str) -> Mapping[str, Any]:
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


def _tiers(
    rule_params: Any, chunk_options: Any, addon_params: Any
) -> list[tuple[Mapping[str, Any], str, Mapping[str, str]]]:
    """The three dict-shaped sources, highest first: (values, key-path prefix, labels)."""
    tiers: list[tuple[Mapping[str, Any], str, Mapping[str, str]]] = []
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
        tiers.append((rule_params, "P(...)", labels))
    path = "chunk_options"
    tiers.append((_p_section(chunk_options, path), f"{path}['paragraph_semantic']", {}))
    chunker = None
    if addon_params is not None:
        if not isinstance(addon_params, Mapping):
            raise ValueError(f"addon_params must be a mapping, got {type(addon_params).__name__}")
        chunker = addon_params.get("chunker")
    path = "addon_params['chunker']"
    tiers.append((_p_section(chunker, path), f"{path}['paragraph_semantic']", {}))
    return tiers


def resolve_p_settings(
    *,
    addon_params: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    constructor_overlap: int | None = None,
    rule_params: Mapping[str, Any] | Directives | None = None,
    chunk_options: Mapping[str, Any] | None = None,
) -> PSettings:
    """P's size, overlap and drop_references for one document, highest source first.

    ``rule_params`` is the ``P(...)`` block of the resolved rule/hint: a mapping with
    canonical keys, or a ``routing.Directives``. Every value that is set is checked, even
    one a higher source overrides, so a typo never waits for the day it takes effect.

    Raises:
        ValueError: a non-integer, a size < 1, an overlap < 0, a non-boolean
            drop_references, or an effective overlap >= the effective size.
    """
    env = os.environ if env is None else env
    sizes: list[tuple[int, str]] = []
    overlaps: list[tuple[int, str]] = []
    drops: list[tuple[bool, str]] = []
    toc_drops: list[tuple[bool, str]] = []
    chosen: dict[str, list[tuple[str, str]]] = {key: [] for key in _CHOICES}
    for values, prefix, labels in _tiers(rule_params, chunk_options, addon_params):
        for key, found in ((SIZE, sizes), (OVERLAP, overlaps)):
            if values.get(key) is not None:
                source = labels.get(key) or f"{prefix}['{key}']"
                found.append((_as_int(values[key], 1 if key == SIZE else 0, source), source))
        if values.get(DROP) is not None:
            source = labels.get(DROP) or f"{prefix}['{DROP}']"
            drops.append((_as_bool(values[DROP], source), source))
        if values.get(DROP_TOC) is not None:
            source = f"{prefix}['{DROP_TOC}']"
            toc_drops.append((_as_bool(values[DROP_TOC], source), source))
        for key, found_words in chosen.items():
            if values.get(key) is not None:
                source = f"{prefix}['{key}']"
                found_words.append((_as_choice(key, values[key], source), source))

    for name, minimum, found in ((SIZE_ENV, 1, sizes), (P_OVERLAP_ENV, 0, overlaps)):
        value = _env_int(env, name, minimum)
        if value is not None:
            found.append(value)
    if constructor_overlap is not None:
        source = f"LightRAG(chunk_overlap_token_size={constructor_overlap!r})"
        overlaps.append((_as_int(constructor_overlap, 0, source), source))
    value = _env_int(env, OVERLAP_ENV, 0)
    if value is not None:
        overlaps.append(value)
    for name, found_drops in ((DROP_REFERENCES_ENV, drops), (DROP_TOC_ENV, toc_drops)):
        raw_drop = env.get(name)
        if not _is_unset(raw_drop):
            source = f"{name} (env)"
            found_drops.append((_as_bool(raw_drop, source), source))

    for key, found_words in chosen.items():
        name = _CHOICES[key][0]
        raw_word = env.get(name)
        if not _is_unset(raw_word):
            source = f"{name} (env)"
            found_words.append((_as_choice(key, raw_word, source), source))

    size, size_source = sizes[0] if sizes else (DEFAULT_P_SIZE, "default")
    overlap, overlap_source = overlaps[0] if overlaps else (DEFAULT_OVERLAP, "default")
    drop, drop_source = drops[0] if drops else (False, "default")
    drop_toc, drop_toc_source = toc_drops[0] if toc_drops else (False, "default")
    if overlap >= size:
        raise ValueError(
            f"P chunk_overlap_token_size ({overlap}, from {overlap_source}) must be < "
            f"chunk_token_size ({size}, from {size_source}); lower the overlap or raise the size"
        )
    words = {
        key: found[0] if found else (_CHOICES[key][1], "default") for key, found in chosen.items()
    }
    sources = {
        SIZE: size_source, OVERLAP: overlap_source, DROP: drop_source, DROP_TOC: drop_toc_source,
        **{key: source for key, (_, source) in words.items()},
    }  # fmt: skip
    return PSettings(size, overlap, drop, sources, drop_toc, words[TABLE_TEXT][0], words[FILL][0])


def _as_choice(key: str, value: Any, source: str) -> str:
    allowed = _CHOICES[key][2]
    choice = value.strip().lower() if isinstance(value, str) else value
    if choice not in allowed:
        raise ValueError(f"{source} must be one of {', '.join(allowed)}, got {value!r}")
    return choice


def _choice_setting(key: str, env: Mapping[str, str] | None) -> str:
    """A one-word setting's variable read live, else its default (``ValueError`` if bad)."""
    env = os.environ if env is None else env
    name, default, _ = _CHOICES[key]
    raw = env.get(name)
    if _is_unset(raw):
        return default
    return _as_choice(key, raw, f"{name} (env)")


def table_text_setting(env: Mapping[str, str] | None = None) -> str:
    """``CHUNK_P_TABLE_TEXT`` read live (for a chunker call that was given no value), else
    the default (raises ``ValueError`` for a bad value)."""
    return _choice_setting(TABLE_TEXT, env)


def fill_setting(env: Mapping[str, str] | None = None) -> str:
    """``CHUNK_P_FILL`` read live (for a chunker call that was given no value), else the
    default (raises ``ValueError`` for a bad value)."""
    return _choice_setting(FILL, env)


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
