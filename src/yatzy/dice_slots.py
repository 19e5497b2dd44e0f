"""Where each die lies on the table: a front end's view of the dice, in slots.

The engine keeps the dice as a multiset (sorted); a player sees them in slots and holds a die
by its slot's key or place. So that a held die keeps its slot (and its key) over the rolls of a
turn, a new roll is placed into the previous slots: the held slots keep their faces and the new
dice fill the others, in order. Pure functions, shared by the terminal and the page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence


def held_slots(slots: Sequence[int] | None, kept: Sequence[int],
               chosen: Collection[int] = ()) -> frozenset[int]:
    """The slots of ``slots`` that hold the dice ``kept`` by a roll: ``chosen`` when they show
    exactly those faces (the slots the player held), else the first slots showing each kept face
    (a bot's keep, or a keep the front end did not see chosen). Empty without previous slots."""
    if slots is None:
        return frozenset()
    picked = frozenset(i for i in chosen if 0 <= i < len(slots))
    if Counter(slots[i] for i in picked) == Counter(kept):
        return picked
    found: set[int] = set()
    for face in kept:
        i = next((i for i, d in enumerate(slots) if d == face and i not in found), None)
        if i is not None:
            found.add(i)
    return frozenset(found)


def place(dice: Sequence[int], slots: Sequence[int] | None, held: Collection[int]) -> tuple[int, ...]:
    """The dice ``dice`` (a multiset, in any order) laid out in slots: each slot in ``held`` keeps
    its face in ``slots`` while ``dice`` still has one to give, and the other dice fill the other
    slots in the order of ``dice``. Without previous slots of the same count, ``dice`` as given.

    A roll that kept the held dice thus leaves them where they were; ``place(dice, slots,
    range(len(slots)))`` is ``slots`` itself when it shows the same dice (a view redrawn)."""
    if slots is None or len(slots) != len(dice):
        return tuple(dice)
    left = Counter(dice)
    out: list[int | None] = [None] * len(dice)
    for i in sorted(i for i in held if 0 <= i < len(slots)):
        if left[slots[i]] > 0:
            out[i] = slots[i]
            left[slots[i]] -= 1
    rest: list[int] = []
    for d in dice:
        if left[d] > 0:
            rest.append(d)
            left[d] -= 1
    free = iter(rest)
    return tuple(next(free) if d is None else d for d in out)
