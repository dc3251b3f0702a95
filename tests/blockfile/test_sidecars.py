"""The sidecar writer (blockfile/sidecars.py): its indented JSON is json's, byte for byte."""

from __future__ import annotations

import json
import random

from lightrag_pchunk.blockfile.sidecars import dumps_indented


def _value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice(
            ["a", '数"\\\n\x01\u2028', "", 0, -5, 10**20, 1.5, 1e-7, float("nan"), float("inf"),
             True, False, None, (1, 2)]
        )  # fmt: skip
    if roll < 0.65:
        keys = ["k", "é", "a b", "", 'x"y']
        return {rng.choice(keys) + str(i): _value(rng, depth + 1) for i in range(rng.randint(0, 4))}
    if roll < 0.9:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {1: "an int key"}  # json's own key conversion


def test_dumps_indented_is_json_dumps_with_indent_two() -> None:
    rng = random.Random(16)
    for _ in range(3000):
        value = _value(rng)
        assert dumps_indented(value) == json.dumps(value, ensure_ascii=False, indent=2)
