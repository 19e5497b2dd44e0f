"""Words only the terminal app's screens show, made from views (never from the rules); the
words of events, rounds, rolls and winners are :mod:`yatzy.narration`'s.

Every function here speaks the current language: call it inside ``with language(lang):``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import _, ngettext
from ..views import BonusView


def dice_text(dice: Sequence[int]) -> str:
    return " ".join(map(str, dice))


def pace_text(pace: float) -> str:
    """A bonus pace in a few characters: "+4", "−3", "±0"."""
    n = round(pace)
    return "±0" if n == 0 else f"+{n}" if n > 0 else f"−{-n}"


def bonus_cell(bonus: BonusView) -> str:
    """A bonus in a card's column: "earned", "12 more" or "missed"."""
    if bonus.points:
        return _("earned")
    if not bonus.reachable:
        return _("missed")
    return _("{n} more").format(n=bonus.needed)


def bonus_sentence(name: str, bonus: BonusView) -> str:
    """ "Ann: the bonus needs 12 more, 4 ahead of the pace"."""
    if bonus.points:
        return _("{name}: the bonus is earned").format(name=name)
    if not bonus.reachable:
        return _("{name}: the bonus is out of reach").format(name=name)
    n = round(bonus.pace)
    if n > 0:
        pace = ngettext("{n} ahead of the pace", "{n} ahead of the pace", n).format(n=f"+{n}")
    elif n < 0:
        pace = ngettext("{n} behind the pace", "{n} behind the pace", -n).format(n=-n)
    else:
        pace = _("on the pace")
    return _("{name}: the bonus needs {n} more, {pace}").format(name=name, n=bonus.needed, pace=pace)
