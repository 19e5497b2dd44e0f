"""Scandinavian Yatzy: five dice, 15 boxes, +50 for 63 in the upper section."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..i18n import N_
from ..rules import Ruleset
from .parts import SCANDINAVIAN_OPTIONS, RulesetEntry, common, register, scandinavian_parts


def build(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    return Ruleset(**scandinavian_parts(o), **common(e, o))


ENTRY = register(RulesetEntry(
    "yatzy", N_("Yatzy (Scandinavian)"),
    ("scandinavian", "nordic", "yatzy-scandinavian", "skandinavisk", "classic"),
    SCANDINAVIAN_OPTIONS, build, menu_order=10))
