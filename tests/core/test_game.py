"""The game engine: whole random games, replay, undo, save/load and bad input."""

from __future__ import annotations

import itertools
import json

import pytest

from yatzy.bots import GreedyBot, RandomBot, run
from yatzy.errors import IllegalActionError, InvalidActionError, UnknownRulesetError
from yatzy.game import Game, Restore, Roll, Score
from yatzy.registry import OPTIONS, RULESETS, get_ruleset


def option_combinations(name: str) -> list[dict[str, object]]:
    """Every combination of the ruleset's choice options (numbers at their default and one other)."""
    axes = []
    for spec in OPTIONS[name]:
        if spec.choices is not None:
            axes.append([(spec.name, v) for v in spec.choices])
        elif spec.name == "bank_cap":
            axes.append([(spec.name, None), (spec.name, 1)])
        else:
            axes.append([(spec.name, spec.default), (spec.name, 42)])
    combos = [dict(c) for c in itertools.product(*axes)]
    # a bank cap needs saved rolls (refused otherwise)
    return [c for c in combos if c.get("saved_rolls", True) or c.get("bank_cap") is None]


CASES = [(name, opts) for name in RULESETS for opts in option_combinations(name)]


@pytest.mark.slow
@pytest.mark.parametrize("name,opts", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_random_games_end_and_replay(name: str, opts: dict[str, object]) -> None:
    rs = get_ruleset(name, **opts)
    for n_players in (1, 2, 4):
        seed = hash((name, tuple(opts.items()), n_players)) % 2**32
        players = [RandomBot(seed + i) if i % 2 else GreedyBot() for i in range(n_players)]
        game = run(Game(rs, [f"p{i}" for i in range(n_players)], seed=seed), players)  # type: ignore[list-item]
        assert game.is_over
        scores = [a for a in game.log if isinstance(a, Score)]
        assert len(scores) == rs.turns * n_players
        for p in game.state.players:
            assert set(p.card) == set(rs.category_ids)
        again = Game.from_json(game.to_json())
        assert again.state == game.state
        assert again.totals() == game.totals()
        if rs.order is not None:
            assert [a.category for a in scores[::n_players]] == list(rs.order)


def test_saved_rolls_bank() -> None:
    g = Game("osto", ["a"], seed=3)
    g.roll()
    g.score("chance")
    assert g.player.bank == 2 and g.rolls_left == 5
    g.roll()
    g.roll(g.state.dice[:1])
    g.score("yatzy")
    assert g.player.bank == 3
    capped = Game(get_ruleset("maxi", bank_cap=1), ["a"], seed=3)
    capped.roll()
    capped.score("chance")
    assert capped.player.bank == 1


def test_no_fourth_roll() -> None:
    g = Game("yatzy", ["a"], seed=1)
    g.roll()
    g.roll()
    g.roll()
    with pytest.raises(IllegalActionError, match="no rolls left"):
        g.roll()


def test_bad_input_changes_nothing() -> None:
    g = Game("yatzy", ["a", "b"], seed=5)
    with pytest.raises(IllegalActionError, match="roll the dice"):
        g.score("chance")
    g.roll()
    before = (g.to_json(), repr(g.state))
    bad = [
        (lambda: g.roll([7]), InvalidActionError),
        (lambda: g.score("tower"), InvalidActionError),
        (lambda: g.apply(Roll((), (1, 2))), InvalidActionError),
        (lambda: g.apply(Score("chance", player=1)), IllegalActionError),
        (lambda: g.roll([6, 6, 6, 6, 6, 6]), IllegalActionError),
        (lambda: g.score("chance", [3]), InvalidActionError),
    ]
    for call, err in bad:
        with pytest.raises(err):
            call()
        assert (g.to_json(), repr(g.state)) == before
    g.score("chance")
    g.roll()
    g.score("ones")
    g.roll()
    with pytest.raises(IllegalActionError, match="is filled already"):
        g.score("chance")


def test_forced_order_message() -> None:
    g = Game("pakko", ["a"], seed=1)
    g.roll()
    with pytest.raises(IllegalActionError, match="the next one is 1 Ones"):
        g.score("chance")
    up = Game(get_ruleset("tvungen", order="up"), ["a"], seed=1)
    up.roll()
    assert list(up.score_options()) == ["yatzy"]


def test_must_keep_one() -> None:
    g = Game(get_ruleset("yatzy", must_keep_one=True), ["a"], seed=1)
    g.roll()
    assert () not in g.legal_keeps()
    with pytest.raises(IllegalActionError, match="keep at least one"):
        g.roll()
    g.roll(g.state.dice[:1])


def test_undo_score_but_not_roll() -> None:
    g = Game("yatzy", ["a", "b"], seed=9)
    g.roll()
    with pytest.raises(IllegalActionError, match="cannot be undone"):
        g.undo()
    dice = g.state.dice
    g.score("chance")
    g.undo()
    assert g.state.dice == dice and "chance" not in g.player.card
    g.score("ones")
    assert g.state.players[0].card == {"ones": dice.count(1)}


def test_the_version_counts_every_action_undo_and_correction_once() -> None:
    g = Game("yatzy", ["a"], dice_from="players")
    g.play(Roll((), (1, 2, 3, 4, 6)))
    g.play(Score("chance"))
    assert g.version == len(g.log) == 2
    g.undo()  # the log shortens, the version goes on
    assert len(g.log) == 1 and g.version == 3
    g.play(Score("sixes"))
    g.amend(0, [Roll((), (1, 1, 1, 1, 1)), Roll((), (6, 6, 6, 6, 6)), Score("sixes")])
    assert len(g.log) == 3 and g.version == 5 == g.clone().version
    with pytest.raises(IllegalActionError):
        g.amend(1, [Score("ones")])  # refused: no change
    assert g.version == 5
    assert Game.from_dict(g.to_dict()).version == 3  # not in the save: a store that keeps it sets it


def test_seeded_games_repeat() -> None:
    a, b = Game("yatzy", seed=42), Game("yatzy", seed=42)
    assert [a.roll() for _ in range(3)] == [b.roll() for _ in range(3)]


def test_loaded_game_continues_with_same_dice() -> None:
    a = Game("yatzy", ["x"], seed=11)
    a.roll()
    a.score("chance")
    b = Game.from_json(a.to_json())
    assert a.roll() == b.roll()


def test_any_number_of_players() -> None:
    game = run(Game("kids", [f"p{i}" for i in range(12)], seed=3), [GreedyBot()] * 12)
    assert game.is_over and len(game.totals()) == 12
    with pytest.raises(InvalidActionError, match="at least one player"):
        Game("yatzy", [])
    with pytest.raises(InvalidActionError, match="needs a name"):
        Game("yatzy", ["Ann", " "])


def test_player_count_and_names() -> None:
    with pytest.raises(UnknownRulesetError, match="known rulesets"):
        get_ruleset("farkle")
    with pytest.raises(InvalidActionError, match="options are"):
        get_ruleset("yatzy", joker="free")
    with pytest.raises(InvalidActionError, match="forced, free, none"):
        get_ruleset("american", joker="wild")
    assert get_ruleset("Maxi-Yatzy").name == "maxi"


def test_yahtzee_jokers_and_bonus() -> None:
    rs = get_ruleset("yahtzee")
    card = {"yahtzee": 50, "fours": 8}
    opts = rs.score_options(card, (4, 4, 4, 4, 4))
    assert opts["full_house"] == 25 and opts["large_straight"] == 40 and "ones" not in opts
    assert rs.score_options({"yahtzee": 50}, (4, 4, 4, 4, 4)) == {"fours": 20}
    assert rs.extra_points(card, (4, 4, 4, 4, 4)) == 100
    assert rs.extra_points({"yahtzee": 0}, (4, 4, 4, 4, 4)) == 0
    free = get_ruleset("yahtzee", joker="free")
    assert free.score_options({"yahtzee": 50}, (4, 4, 4, 4, 4))["full_house"] == 0
    assert free.score_options(card, (4, 4, 4, 4, 4))["small_straight"] == 30
    none = get_ruleset("yahtzee", joker="none")
    assert none.score_options(card, (4, 4, 4, 4, 4))["full_house"] == 0
    lower = {c: 0 for c in rs.category_ids if c not in ("ones", "twos", "fours")}
    lower.update({"yahtzee": 50, "fours": 8})
    assert rs.score_options(lower, (4, 4, 4, 4, 4)) == {"ones": 0, "twos": 0}


def test_keeping_every_die_is_refused() -> None:
    g = Game("yatzy", ["a"], seed=5)
    dice = g.roll()
    assert dice not in g.legal_keeps() and len(g.legal_keeps()) == len(set(g.legal_keeps()))
    with pytest.raises(IllegalActionError, match="keeping every die"):
        g.roll(dice)
    assert g.rolls_left == 2 and g.log == [Roll((), dice)]


def finished_save() -> dict:
    game = run(Game("yatzy", ["a", "b"], seed=21), [GreedyBot(), GreedyBot()])
    return json.loads(game.to_json())


def test_save_without_seed_or_format_is_refused() -> None:
    for field, match in (("seed", "no “seed” field"), ("format", "no save format")):
        data = finished_save()
        del data[field]
        with pytest.raises(InvalidActionError, match=match):
            Game.from_dict(data)
    data = finished_save()
    data["format"] = 99
    with pytest.raises(InvalidActionError, match="format 99; this version reads formats 1 and 2"):
        Game.from_dict(data)
    data = finished_save()
    data["seed"] = "7"
    with pytest.raises(InvalidActionError, match="whole number"):
        Game.from_dict(data)
    for bad in ([1, 2], {"roll": {"keep": []}}, {"hop": {}}):
        data = finished_save()
        data["log"][0] = bad
        with pytest.raises(InvalidActionError, match="action"):
            Game.from_dict(data)


def test_save_with_edited_dice_is_refused() -> None:
    data = finished_save()
    rolls = [i for i, a in enumerate(data["log"]) if "roll" in a]
    i = rolls[3]
    result = data["log"][i]["roll"]["result"]
    data["log"][i]["roll"]["result"] = [6 if d != 6 else 5 for d in result]
    with pytest.raises(InvalidActionError, match=f"action {i + 1} .*seed rolls"):
        Game.from_dict(data)


def test_save_with_an_illegal_action_names_it() -> None:
    data = finished_save()
    data["log"][1] = {"score": {"category": "nope"}}
    with pytest.raises(InvalidActionError, match="action 2 of the saved game"):
        Game.from_dict(data)


# ---- a fast stand-in for the random whole games above ----------------------------------------
# The mutation run leaves those 360 games out for time; these few keep what only they
# checked: a whole game of every ruleset (tile returns and restores in DOZZY) survives a
# save and load action for action.
@pytest.mark.parametrize("name", RULESETS)
def test_whole_game_of_every_ruleset_saves_and_loads(name: str) -> None:
    rs = get_ruleset(name)
    game = run(Game(rs, ["a", "b", "c"], seed=11), [GreedyBot(), RandomBot(5), GreedyBot()])
    loaded = Game.from_json(game.to_json())
    assert loaded.log == game.log
    assert loaded.state == game.state and loaded.totals() == game.totals()
    if rs.uses_board:
        assert any(isinstance(a, Restore) for a in game.log)
        assert any(isinstance(a, Score) and a.returns for a in game.log)
