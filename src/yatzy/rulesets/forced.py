"""Forced Yatzy (Pakko / Tvungen): the Scandinavian card filled in a fixed order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..i18n import N_
from ..rules import Ruleset
from .parts import SCANDINAVIAN_OPTIONS, OptionSpec, RulesetEntry, common, register, scandinavian_parts


def build(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    parts = scandinavian_parts(o)
    ids = tuple(c.id for c in parts["categories"])
    return Ruleset(order=ids if o["order"] == "down" else ids[::-1], **parts, **common(e, o))


ENTRY = register(RulesetEntry(
    "forced", N_("Forced Yatzy (Pakko / Tvungen)"),
    ("pakko", "pakko-yatzy", "tvungen", "tvungen-yatzy", "forced-yatzy"),
    (*SCANDINAVIAN_OPTIONS,
     OptionSpec("order", "down", N_("fill boxes top-down or bottom-up"), ("down", "up"))),
    build, menu_order=20))
