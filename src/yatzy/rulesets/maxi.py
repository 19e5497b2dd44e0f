"""Maxi Yatzy: six dice, 20 boxes (villa and tower among them), saved rolls by default.

Mind the naming trap of its boxes: Finnish *talo* is 4+2 (tower), Swedish *hus* is 3+3
(villa), Danish/Norwegian *hus* is 3+2 (full house).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from .. import scoring as s
from ..i18n import N_
from ..rules import Ruleset
from .parts import (
    BANK_CAP,
    MUST_KEEP_ONE,
    UPPER_IDS,
    OptionSpec,
    RulesetEntry,
    box,
    common,
    register,
    sets,
    upper,
    upper_bonus,
)


def build(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    cats = upper(6) + [
        sets("one_pair", N_("2 x highest pair"), 12, partial(s.of_a_kind, n=2), 2),
        sets("two_pairs", N_("two different pairs: best sum"), 22, partial(s.pairs, n=2), 2, 2),
        sets("three_pairs", N_("three different pairs: sum of the six dice"), 30, partial(s.pairs, n=3),
             2, 3, name=N_("Three Pairs")),
        sets("three_of_a_kind", N_("3 x face shown 3+ times"), 18, partial(s.of_a_kind, n=3), 3),
        sets("four_of_a_kind", N_("4 x face shown 4+ times"), 24, partial(s.of_a_kind, n=4), 4),
        sets("five_of_a_kind", N_("5 x face shown 5+ times"), 30, partial(s.of_a_kind, n=5), 5,
             name=N_("Five of a Kind")),
        box("small_straight", N_("1-2-3-4-5 present: 15"), 15,
            partial(s.straight, low=1, high=5, points=15), kind="straight"),
        box("large_straight", N_("2-3-4-5-6 present: 20"), 20,
            partial(s.straight, low=2, high=6, points=20), kind="straight"),
        box("full_straight", N_("1-2-3-4-5-6: 21"), 21,
            partial(s.straight, low=1, high=6, points=21), N_("Full Straight"), kind="straight"),
        box("full_house", N_("3 + 2 of different faces: best sum of those 5 dice"), 28,
            partial(s.combo, big=3, small=2)),
        box("villa", N_("two different triples: sum of all 6"), 33, partial(s.combo, big=3, small=3),
            N_("Villa (3+3)")),
        box("tower", N_("4 + 2 of different faces: sum of all 6"), 34, partial(s.combo, big=4, small=2),
            N_("Tower (4+2)")),
        box("chance", N_("sum of dice"), 36, s.total, kind="chance"),
        box("maxi_yatzy", N_("six of a kind: 100"), 100, partial(s.all_same, points=100), N_("Maxi Yatzy"),
            kind="yatzy"),
    ]
    threshold = o["bonus_threshold"]
    return Ruleset(dice=6, categories=tuple(cats),
                   bonuses=(upper_bonus(UPPER_IDS, threshold, 100 if threshold == 84 else 50),),
                   saved_rolls=o["saved_rolls"], bank_cap=o["bank_cap"], **common(e, o))


ENTRY = register(RulesetEntry(
    "maxi", N_("Maxi Yatzy (6 dice)"), ("maxi-yatzy", "maxiyatzy", "maksi"),
    (MUST_KEEP_ONE,
     OptionSpec("bonus_threshold", 84, N_("84 earns +100, 75 earns +50"), (84, 75)),
     OptionSpec("saved_rolls", True, N_("unused rolls are saved for later turns"), (False, True)),
     BANK_CAP),
    build, menu_order=30, solver_bank_cap=4))  # the table grows by 0.36 GB per saved roll
