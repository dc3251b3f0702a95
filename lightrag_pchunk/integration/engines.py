"""Parser engines: the suffixes each reads, the endpoint it needs, the parameters it takes.

``native``, ``legacy``, ``mineru`` and ``docling`` as LightRAG 1.5.7 defines them
(``lightrag/parser/routing.py``): built-in suffixes plus ``*_ADDITIONAL_SUFFIXES``, the
MinerU / Docling endpoint variables, and the ``engine(...)`` parameter block each accepts;
and ``pchunk``, the engine this package registers with LightRAG (``lightrag_parser.py``),
for the suffixes of ``formats.FORMATS``. Every environment read goes through an ``env``
mapping.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lightrag_pchunk.integration.formats import SUFFIXES
from lightrag_pchunk.integration.lightrag_routing import PCHUNK
from lightrag_pchunk.integration.params import (
    Param,
    bare_or_forbidden,
    param_segments,
    params_by_name,
    parse_bool,
)

NATIVE, LEGACY, MINERU, DOCLING = "native", "legacy", "mineru", "docling"
P_ENGINES = frozenset({NATIVE, PCHUNK})
"""Engines whose blocks our P reads when LightRAG hands a document to P or chunking_func."""

_PAGE_SEGMENT_RE = re.compile(r"^\d+(?:-\d+)?$")
_SUFFIX_TOKEN_RE = re.compile(r"^[a-z0-9]+$")


def suffix_list(env: Mapping[str, str], name: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """A ``*_ADDITIONAL_SUFFIXES`` list: (valid suffixes, malformed entries as written)."""
    valid: set[str] = set()
    malformed: list[str] = []
    for raw in (env.get(name) or "").split(","):
        token = raw.strip().lower().lstrip(".")
        if token and _SUFFIX_TOKEN_RE.match(token):
            valid.add(token)
        elif token:
            malformed.append(raw.strip())
    return frozenset(valid), tuple(malformed)


@dataclass(frozen=True, slots=True)
class Engine:
    """A user-selectable parser engine: the suffixes it reads and what must be configured."""

    name: str
    suffixes: frozenset[str]
    extra_suffixes_env: str | None = None

    def supported_suffixes(self, env: Mapping[str, str]) -> frozenset[str]:
        """Built-in suffixes plus the well-formed entries of ``extra_suffixes_env``."""
        if self.extra_suffixes_env is None:
            return self.suffixes
        return self.suffixes | suffix_list(env, self.extra_suffixes_env)[0]

    def endpoint_requirement(self, env: Mapping[str, str]) -> str | None:
        """The variable that must be set for this engine to run (None: nothing needed)."""
        if self.name == MINERU:
            mode = env.get("MINERU_API_MODE", "local").strip().lower()
            if mode in ("official", "local"):
                return "MINERU_API_TOKEN" if mode == "official" else "MINERU_LOCAL_ENDPOINT"
            return "valid MINERU_API_MODE (local, official)"
        return "DOCLING_ENDPOINT" if self.name == DOCLING else None

    def missing_endpoint(self, env: Mapping[str, str]) -> str | None:
        """What :meth:`endpoint_requirement` asks for and ``env`` lacks (None: nothing)."""
        requirement = self.endpoint_requirement(env)
        if requirement is None or env.get(requirement, "").strip():
            return None
        return requirement  # unset, blank, or not a variable (an invalid MINERU_API_MODE)

    def is_usable(self, suffix: str, env: Mapping[str, str], require_endpoint: bool) -> bool:
        """Reads ``suffix`` and (when required) has its endpoint configured."""
        if suffix not in self.supported_suffixes(env):
            return False
        return not require_endpoint or self.missing_endpoint(env) is None


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_LEGACY_SUFFIXES = _words(
    "txt md mdx pdf docx pptx xlsx rtf odt tex epub html htm csv json xml yaml yml log conf ini "
    "properties sql bat sh c h cpp hpp py java js ts swift go rb php css scss less"
)
ENGINES: dict[str, Engine] = {
    NATIVE: Engine(NATIVE, frozenset({"docx", "md", "textpack"})),
    LEGACY: Engine(LEGACY, _LEGACY_SUFFIXES),
    MINERU: Engine(
        MINERU,
        _words("pdf docx pptx xlsx png jpg jpeg jp2 webp gif bmp"),
        "MINERU_ADDITIONAL_SUFFIXES",
    ),
    DOCLING: Engine(
        DOCLING,
        _words("pdf docx pptx xlsx md html xhtml png jpg jpeg tiff webp bmp"),
        "DOCLING_ADDITIONAL_SUFFIXES",
    ),
    PCHUNK: Engine(PCHUNK, SUFFIXES),
}
ENGINE_NAMES = ", ".join(sorted(ENGINES))
"""The engines as LightRAG lists them in messages (ours registered): ``docling, legacy, ...``."""


def engine_name(text: str) -> str:
    """``' Native(x=1)-P'`` -> ``'native'``: cut at '(' and '-', strip, lower-case."""
    return str(text or "").strip().split("(", 1)[0].split("-", 1)[0].strip().lower()


def file_suffix(file_name: str | os.PathLike[str]) -> str:
    """The suffix rules match against: lower-case, without the dot (``A.DOCX`` -> ``docx``)."""
    return Path(file_name).suffix.lower().lstrip(".")


# --- engine parameters -----------------------------------------------------------------

_ENGINE_PARAMS: dict[str, tuple[Param, ...]] = {
    MINERU: (
        Param("page_range", "pages", frozenset({"pr"})),
        Param("language", "str"),
        Param(
            "local_parse_method",
            "enum",
            frozenset({"local_pm"}),
            choices=frozenset({"auto", "txt", "ocr"}),
        ),
    ),
    DOCLING: (Param("force_ocr", "bool", frozenset({"ocr"})),),
    NATIVE: (Param("smart_heading", "bool"),),
}


def _mineru_is_local(env: Mapping[str, str]) -> bool:
    return (env.get("MINERU_API_MODE", "") or "").strip().lower() != "official"


def _page_range_errors(segments: list[str], env: Mapping[str, str]) -> list[str]:
    errors: list[str] = []
    for seg in segments:
        if not _PAGE_SEGMENT_RE.match(seg):
            errors.append(f"page_range segment {seg!r} must be a page 'N' or range 'N-M'")
        elif "-" in seg:
            head, _, tail = seg.partition("-")
            start, end = int(head), int(tail)
            if start < 1 or end < 1:
                errors.append(f"page_range segment {seg!r} must use positive pages")
            elif end < start:
                errors.append(f"page_range segment {seg!r} must have end >= start")
        elif int(seg) < 1:
            errors.append(f"page_range segment {seg!r} must be a positive page")
    if not errors and len(segments) > 1 and _mineru_is_local(env):
        errors.append(
            "page_range with MINERU_API_MODE=local supports only a single page or range such "
            "as '1-10'; use MINERU_API_MODE=official for a multi-segment list"
        )
    return errors


def _engine_value(
    param: Param, value: str, label: str, env: Mapping[str, str]
) -> tuple[Any, str | None]:
    """Coerce one engine-parameter value; ``(value, None)`` or ``(None, error)``."""
    if param.name == "local_parse_method" and not _mineru_is_local(env):
        # The official MinerU API ignores it: accepting it would persist a no-op directive.
        return None, (
            f"{label}: 'local_parse_method' only applies to MINERU_API_MODE=local "
            "(the default); the official API ignores it"
        )
    if param.kind == "bool":
        flag = parse_bool(value)
        if flag is None:
            return None, (
                f"{label}: value for {param.name!r} must be a boolean (true/false), got {value!r}"
            )
        return flag, None
    if param.kind == "enum":
        if value not in param.choices:
            allowed = ", ".join(sorted(param.choices))
            return (
                None,
                f"{label}: value for {param.name!r} must be one of {allowed}, got {value!r}",
            )
        return value, None
    if not value:
        return None, f"{label}: value for {param.name!r} must be non-empty"
    if param.kind == "pages":
        segments = [seg.strip() for seg in value.split(",")]
        problems = _page_range_errors(segments, env)
        if problems:
            return None, f"{label}: " + "; ".join(problems)
        return ",".join(segments), None
    return value, None


def parse_engine_params(
    text: str, *, engine: str, label: str, env: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Parse the inside of ``mineru(...)`` / ``docling(...)`` / ``native(...)``."""
    env = os.environ if env is None else env
    params = _ENGINE_PARAMS.get(engine)
    if params is None:
        if text.strip():
            return {}, [f"{label}: parser engine {engine!r} does not accept parameters"]
        return {}, []
    by_name = params_by_name(params)
    result: dict[str, Any] = {}
    lists: dict[str, list[str]] = {}
    errors: list[str] = []
    seen: set[str] = set()
    for key, value, bare in param_segments(text, label, errors):
        param = by_name.get(key)
        if param is None:
            if bare and _PAGE_SEGMENT_RE.match(key) and "page_range" in by_name:
                errors.append(
                    f"{label}: page lists must repeat the key, e.g. 'page_range=1-3,page_range=5' "
                    "(a comma only separates parameters)"
                )
            else:
                names = ", ".join(sorted(p.name for p in params))
                errors.append(
                    f"{label}: unknown parameter {key!r} for engine {engine!r}; "
                    f"supported parameters: {names}"
                )
            continue
        problem = bare_or_forbidden(param, value, bare, label)
        if problem is not None:
            errors.append(problem)
            continue
        if param.kind == "pages":
            lists.setdefault(param.name, []).append(value)
            continue
        if param.name in seen:
            errors.append(f"{label}: parameter {param.name!r} may not be repeated")
            continue
        seen.add(param.name)
        coerced, problem = _engine_value(param, "true" if bare else value, label, env)
        if problem is None:
            result[param.name] = coerced
        else:
            errors.append(problem)
    for name, values in lists.items():
        coerced, problem = _engine_value(by_name[name], ",".join(values), label, env)
        if problem is None:
            result[name] = coerced
        else:
            errors.append(problem)
    return result, errors
