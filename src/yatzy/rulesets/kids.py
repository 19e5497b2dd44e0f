"""Kids' Yatzy: the upper section alone, for practice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..i18n import N_
from ..rules import Ruleset
from .parts import MUST_KEEP_ONE, THRESHOLD_63, UPPER_IDS, RulesetEntry, common, register, upper, upper_bonus


def build(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    return Ruleset(dice=5, categories=tuple(upper(5)),
                   bonuses=(upper_bonus(UPPER_IDS, o["bonus_threshold"]),), **common(e, o))


ENTRY = register(RulesetEntry(
    "kids", N_("Kids' Yatzy (upper section practice)"), ("children", "lasten", "practice"),
    (MUST_KEEP_ONE, THRESHOLD_63), build, menu_order=50))
