"""The outline's language-model settings: what the instance's model is asked while a document
is parsed, and the budget per document (``integration/llm_outline.py`` asks it).

``settings.resolve`` reads them for every document, with the precedence of the other P
settings (``config.py``): ``addon_params["chunker"]["paragraph_semantic"]`` keys
``llm_boundaries``, ``llm_max_calls``, ``llm_max_tokens`` (given, else the instance's), over
the variables ``CHUNK_P_LLM_BOUNDARIES`` (``off|ambiguous|long|ambiguous,long``),
``CHUNK_P_LLM_MAX_CALLS``, ``CHUNK_P_LLM_MAX_TOKENS``, over the defaults. Every value that is
set is checked, even one a higher source overrides, so a typo never waits for the day it
takes effect; ``check_config`` checks the variables at start-up.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lightrag_pchunk.integration.config import addon_section, as_int, is_unset
from lightrag_pchunk.outline.judge import BoundaryMode, parse_modes

MODES_ENV = "CHUNK_P_LLM_BOUNDARIES"
MAX_CALLS_ENV = "CHUNK_P_LLM_MAX_CALLS"
MAX_TOKENS_ENV = "CHUNK_P_LLM_MAX_TOKENS"
DEFAULT_MAX_CALLS = 8
DEFAULT_MAX_TOKENS = 24_000

#: The ``addon_params`` keys, as ``describe`` names them too.
MODES, MAX_CALLS, MAX_TOKENS = "llm_boundaries", "llm_max_calls", "llm_max_tokens"
#: Each setting: its variable and its default.
_KEYS: dict[str, tuple[str, Any]] = {
    MODES: (MODES_ENV, frozenset()),
    MAX_CALLS: (MAX_CALLS_ENV, DEFAULT_MAX_CALLS),
    MAX_TOKENS: (MAX_TOKENS_ENV, DEFAULT_MAX_TOKENS),
}


@dataclass(frozen=True, slots=True)
class BoundarySettings:
    """What the model is asked, the per-document budget, and where each value came from
    (``sources``: only the keys a source set; the others are defaults)."""

    modes: frozenset[BoundaryMode] = frozenset()
    max_calls: int = DEFAULT_MAX_CALLS
    max_tokens: int = DEFAULT_MAX_TOKENS
    sources: Mapping[str, str] = field(default_factory=dict)

    @property
    def is_on(self) -> bool:
        return bool(self.modes)

    @property
    def modes_text(self) -> str:
        """``off``, ``ambiguous``, ``long`` or ``ambiguous,long`` (a record's form)."""
        return ",".join(sorted(mode.value for mode in self.modes)) or "off"

    def describe(self) -> str:
        """For ``inspect``: ``llm_boundaries=off (default) llm_max_calls=8 (default) ...``."""
        values = {MODES: self.modes_text, MAX_CALLS: self.max_calls, MAX_TOKENS: self.max_tokens}
        return " ".join(
            f"{key}={value} ({self.sources.get(key, 'default')})" for key, value in values.items()
        )


def boundary_settings(
    addon_params: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None
) -> BoundarySettings:
    """The outline's model settings, ``addon_params`` over the variables (module doc).

    Raises:
        ValueError: a bad mode, or a budget that is not an integer >= 1, naming the setting,
            where it came from and the value.
    """
    env = os.environ if env is None else env
    section = addon_section(addon_params)
    path = "addon_params['chunker']['paragraph_semantic']"
    chosen: dict[str, tuple[Any, str]] = {}
    for key, (variable, _) in _KEYS.items():
        given = [] if section.get(key) is None else [(section[key], f"{path}['{key}']")]
        if not is_unset(env.get(variable)):
            given.append((env[variable], f"{variable} (env)"))
        for raw, source in given:  # highest first; each is checked
            value = parse_modes(raw, source=source) if key == MODES else as_int(raw, 1, source)
            chosen.setdefault(key, (value, source))
    values = {key: chosen.get(key, (default, ""))[0] for key, (_, default) in _KEYS.items()}
    return BoundarySettings(
        values[MODES],
        values[MAX_CALLS],
        values[MAX_TOKENS],
        {key: source for key, (_, source) in chosen.items()},
    )
