"""Display names of boxes and sheet labels, in the player's language.

Ids never change; only what a player reads does. Each box's English name is the catalog's
source text and comes from its ruleset's module (``yatzy/rulesets/``), which names its
boxes when it registers (importing ``yatzy.registry`` or ``yatzy.rulesets`` registers
them all); the translations live in the gettext catalogs.
"""

from __future__ import annotations

from collections.abc import Mapping

from .i18n import LANGUAGES, N_, _, check_language, current_language, language

__all__ = ["LABELS", "LANGUAGES", "category_name", "check_language", "box_label", "label",
           "name_boxes"]

_BOX_NAMES: dict[str, tuple[str, int | None]] = {}
"""Each registered box id's English name and the number its ``{n}`` stands for (DOZZY's
sum rows read "{n} (pair sums)"), as the registered rulesets name them."""
_NAMED: dict[tuple[str, str], str] = {}
"""Box names already looked up: (id, language) -> name (every view names every box)."""

LABELS: dict[str, str] = {
    "bonus": N_("Bonus"), "total": N_("Total"), "category": N_("Box"), "max": N_("Max"),
    "rule": N_("Rule"), "player": N_("Player"), "yahtzee_bonus": N_("Yahtzee bonus"),
    "upper": N_("Upper section"), "turns": N_("turns"), "dice": N_("dice"),
}


def name_boxes(names: Mapping[str, tuple[str, int | None]]) -> None:
    """Make these the box names :func:`category_name` knows (the ruleset registry calls
    this with every registered ruleset's boxes)."""
    _BOX_NAMES.clear()
    _BOX_NAMES.update(names)
    _NAMED.clear()


def category_name(category_id: str, lang: str | None = None) -> str:
    """Display name of a box id, in ``lang`` or the current language (an unknown id as it is)."""
    if lang is not None:
        with language(lang):
            return category_name(category_id)
    key = (category_id, current_language())
    named = _NAMED.get(key)
    if named is None:
        if category_id not in _BOX_NAMES:
            return category_id
        name, n = _BOX_NAMES[category_id]
        named = _NAMED[key] = _(name) if n is None else _(name).format(n=n)
    return named


def box_label(number: int, name: str) -> str:
    """A box as a player names it: "3 Threes", "13 One Pair"; DOZZY's "7 (pair sums)" keeps
    its number once."""
    return name if name.startswith(f"{number} ") else f"{number} {name}"


def label(key: str, lang: str | None = None) -> str:
    """A sheet label (bonus, total, ...), in ``lang`` or the current language."""
    if lang is not None:
        check_language(lang)
        with language(lang):
            return _(LABELS[key])
    return _(LABELS[key])
