"""Why the engine refuses an action, worded once: the checks :class:`~yatzy.game.Game` runs
before it applies a roll, a score or a DOZZY tile return.

Each check reads the rules and the table and changes nothing: it returns what the action
means (the dice kept, the tiles that come back) or raises the refusal in the player's
language, naming what was wrong and what is allowed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .actions import Score
from .dice import Dice, is_submultiset, normalize, show_dice
from .errors import IllegalActionError
from .i18n import _, ngettext
from .names import box_label, category_name
from .rules import Ruleset, check_tiles

__all__ = ["box", "keep", "refuse_box", "restore", "tile_returns"]


def box(ruleset: Ruleset, category: str) -> str:
    """A box as a player names it: its fixed number and its name ("6 Sixes")."""
    return box_label(ruleset.category_ids.index(category) + 1, category_name(category))


def keep(ruleset: Ruleset, dice: Dice | None, rolls_left: int, kept: Iterable[int]) -> Dice:
    """The dice kept by a roll, checked against the table (``dice``, None before the turn's
    first roll) and the rolls left.

    :raises InvalidActionError: not dice.
    :raises IllegalActionError: no roll left, a keep on the first roll, dice not on the table,
        every die kept, or nothing kept under house rule must_keep_one.
    """
    held = normalize(kept)
    if rolls_left <= 0:
        raise IllegalActionError(_("no rolls left this turn; score the dice in a box"))
    if dice is None:
        if held:
            raise IllegalActionError(_("the first roll of a turn throws all dice; keep nothing"))
        return held
    if not is_submultiset(held, dice):
        raise IllegalActionError(
            _("cannot keep {keep}: the dice on the table are {dice}").format(
                keep=show_dice(held), dice=show_dice(dice))
        )
    if len(held) == len(dice):
        raise IllegalActionError(
            _("keeping every die would spend a roll for nothing; keep fewer dice or score")
        )
    if ruleset.must_keep_one and not held:
        raise IllegalActionError(_("house rule must_keep_one: keep at least one die to re-roll"))
    return held


def refuse_box(ruleset: Ruleset, card: Mapping[str, int], category: str, options: Mapping[str, int]) -> None:
    """Refuse a score in ``category``, which is not among the ``options`` the dice allow, saying
    why: filled already, another box next in order, or the joker rule; and what may be scored.

    :raises IllegalActionError: always.
    """
    if category in card:
        raise IllegalActionError(_("box {box} is filled already; choose an open box from the list")
                                 .format(box=box(ruleset, category)))
    allowed = ", ".join(box(ruleset, c) for c in options)
    if ruleset.order is not None:
        raise IllegalActionError(_("this game fills the boxes in order: the next one is {box}")
                                 .format(box=allowed))
    raise IllegalActionError(
        _("box {box} cannot take these dice now (joker rule); you may score: {boxes}")
        .format(box=box(ruleset, category), boxes=allowed))


def tile_returns(category: str, choices: list[frozenset[int]],
                 returns: Iterable[object] | None) -> frozenset[int]:
    """DOZZY: the tiles that come back with a score, among the rules' ``choices``; a refusal
    writes the allowed ones as the scores to type (``s n3 4 5 or s n3 9``).

    :raises InvalidActionError: not tile numbers.
    :raises IllegalActionError: a choice left to make, or tiles that may not come back.
    """
    ways = _(" or ").join(str(Score(category, tuple(sorted(c)) if len(choices) > 1 else None))
                          for c in choices)
    if returns is None:
        if len(choices) > 1:
            raise IllegalActionError(_("choose which tiles come back: {ways}").format(ways=ways))
        return choices[0]
    chosen = check_tiles(returns)
    if chosen in choices:
        return chosen
    if choices == [frozenset()]:
        raise IllegalActionError(_("no tiles come back with this score: write {ways}").format(ways=ways))
    raise IllegalActionError(
        ngettext("tile {tiles} cannot come back with this score; choose {ways}",
                 "tiles {tiles} cannot come back with this score; choose {ways}", len(chosen))
        .format(tiles=" ".join(map(str, sorted(chosen))), ways=ways))


def restore(may: int, tiles: tuple[int, ...], out: frozenset[int]) -> frozenset[int]:
    """DOZZY: the tiles brought back before a turn's first roll, checked: exactly ``may`` of
    them (0: none may come back now), each one of those ``out``.

    :raises InvalidActionError: not tile numbers.
    :raises IllegalActionError: no return allowed now, or the wrong tiles or count.
    """
    if may == 0:
        raise IllegalActionError(
            _("tiles may come back only before the first roll of a turn with 4 or more out")
        )
    chosen = check_tiles(tiles)
    if len(chosen) != may or len(tiles) != may or not chosen <= out:
        raise IllegalActionError(
            ngettext("bring back exactly {n} tile of those that are out ({out}), leaving 3 out",
                     "bring back exactly {n} tiles of those that are out ({out}), leaving 3 out", may)
            .format(n=may, out=show_dice(sorted(out)))
        )
    return chosen
