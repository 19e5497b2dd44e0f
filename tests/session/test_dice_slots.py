"""The dice in slots (yatzy.dice_slots): a roll keeps the held dice where they lay."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from yatzy.dice_slots import held_slots, place

faces = st.integers(1, 6)


@st.composite
def rolls(draw: st.DrawFn) -> tuple[list[int], frozenset[int], list[int]]:
    """Slots on the table, the slots held, and the new dice: the held faces plus a fresh roll."""
    slots = draw(st.lists(faces, min_size=1, max_size=6))
    held = frozenset(draw(st.sets(st.integers(0, len(slots) - 1))))
    fresh = draw(st.lists(faces, min_size=len(slots) - len(held), max_size=len(slots) - len(held)))
    return slots, held, sorted([slots[i] for i in held] + fresh)


@given(rolls())
def test_held_dice_keep_their_slots_and_the_new_dice_fill_the_others(
        case: tuple[list[int], frozenset[int], list[int]]) -> None:
    slots, held, dice = case
    placed = place(dice, slots, held)
    assert Counter(placed) == Counter(dice)  # the engine's multiset, only in another order
    assert all(placed[i] == slots[i] for i in held)
    fresh = [placed[i] for i in range(len(slots)) if i not in held]
    assert fresh == sorted(fresh)  # the others in the order they came
    # the slots a person held are found again from the faces kept
    assert held_slots(slots, [slots[i] for i in held], held) == held


@given(st.lists(faces, min_size=1, max_size=6))
def test_a_view_redrawn_shows_the_slots_as_they_are(slots: list[int]) -> None:
    assert place(sorted(slots), slots, range(len(slots))) == tuple(slots)


def test_held_dice_stay_put_over_a_roll() -> None:
    # 5 2 6 3 5 on the table, the second and the fourth held (2 and 3); the roll brings 1 4 6
    assert place((1, 2, 3, 4, 6), (5, 2, 6, 3, 5), {1, 3}) == (1, 2, 4, 3, 6)
    # two equal faces: the slot held is the one kept, not the first showing that face
    assert held_slots((3, 5, 3), (3,), {2}) == {2}
    assert held_slots((3, 5, 3), (3,), ()) == {0}  # a bot's keep: the first 3
    assert held_slots((3, 5, 3), (3, 3), {0}) == {0, 2}  # the choice does not match the keep


def test_without_slots_of_the_same_count_the_dice_are_shown_as_given() -> None:
    assert place((1, 2, 3), None, {0}) == (1, 2, 3)
    assert place((1, 2, 3), (4, 4), {0}) == (1, 2, 3)
    assert held_slots(None, (3,)) == frozenset()


def test_a_held_face_the_dice_no_longer_have_gives_its_slot_up() -> None:
    # the held 6 is gone (an undo, a correction): its slot takes a die of the others
    assert place((1, 2, 3), (6, 2, 5), {0, 1}) == (1, 2, 3)
    assert place((2, 2, 3), (6, 2, 5), {0, 1}) == (2, 2, 3)


def test_a_slot_past_the_last_and_a_face_not_on_the_table_are_left_out() -> None:
    slots = (1, 2, 3, 4, 5)
    assert held_slots(slots, (1,), {0, 5}) == frozenset({0})  # slot 5 is one past the last
    assert held_slots(slots, (1,), {0, -1}) == frozenset({0})
    assert held_slots(slots, (6, 1)) == frozenset({0})  # no 6 lies there
    assert place((5, 4, 3, 2, 1), slots, {4, 5}) == (4, 3, 2, 1, 5)  # slot 4 keeps its 5
