"""The game engine: whole random games, replay, undo, save/load and bad input."""

from __future__ import annotations

import itertools
import json

import pytest

from yatzy import saves
from yatzy.bots import GreedyBot, RandomBot, run
from yatzy.errors import IllegalActionError, InvalidActionError, UnknownRulesetError
from yatzy.game import Game, Restore, Roll, Score, Seat
from yatzy.i18n import language
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
    filled = "^box 14 Chance is filled already; choose an open box from the list$"
    with pytest.raises(IllegalActionError, match=filled):
        g.score("chance")  # Chance is the 14th of Yatzy's 15 boxes (docs/rules.md)


def test_refusals_of_a_roll_or_a_score_say_what_is_wrong_in_whole() -> None:
    """The engine's refusals as a player reads them, each compared in full: a roll's dice
    one too few and one too many for the dice kept, a score before the roll, tile returns in
    a game without a board, a fourth roll, a scorekeeper's roll with no dice typed."""
    g = Game("yatzy", ["A", "B"], seed=5)
    with pytest.raises(IllegalActionError) as refused:
        g.score("chance")
    assert str(refused.value) == "roll the dice before scoring"
    dice = g.roll()
    kept = dice[:2]
    for thrown in ((1, 1), (1, 1, 1, 1)):  # keeping 2 of 5 dice rolls 3
        with pytest.raises(InvalidActionError) as refused:
            g.apply(Roll(kept, thrown))
        assert str(refused.value) == f"a roll keeping 2 dice rolls 3, not {len(thrown)}"
    for keep, word in ((dice[:1], "die"), ((), "dice")):  # one die kept, and none
        with pytest.raises(InvalidActionError) as refused:
            g.apply(Roll(keep, (1,) * 6))
        assert str(refused.value) == f"a roll keeping {len(keep)} {word} rolls {5 - len(keep)}, not 6"
    with pytest.raises(InvalidActionError) as refused:
        g.score("chance", [3])
    assert str(refused.value) == "yatzy has no tile board; leave out the tile returns"
    g.apply(Roll(kept, (1, 1, 1)))
    g.roll()
    with pytest.raises(IllegalActionError) as refused:
        g.roll()
    assert str(refused.value) == "no rolls left this turn; score the dice in a box"
    with pytest.raises(InvalidActionError) as refused:
        Game("yatzy", ["A"], dice_from="players").play(Roll())
    assert str(refused.value) == "in a scorekeeper game type the dice you threw, e.g. 1 3 3 5 6"


def test_a_game_refuses_a_bad_setup_an_unknown_box_and_any_action_once_over_in_whole() -> None:
    """The refusals of Game() and of a finished game, compared in full: dice from nowhere
    known, no players, a roll-off in a scorekeeper game (rolled at the table instead), a box
    the rules do not have (docs/rules.md: Kids' Yatzy is Ones to Sixes), an action once over."""
    for setup, words in (
        (dict(dice_from="table"), "dice come from the “server” or the “players”, not “table”"),
        (dict(players=[]), "a game needs at least one player"),
        (dict(dice_from="players", roll_off=True),
         "a scorekeeper game has no roll-off of its own: roll at the table and name the first player"),
    ):
        with pytest.raises(InvalidActionError) as refused:
            Game("kids", **{"players": ["A", "B"], **setup})  # type: ignore[arg-type]
        assert str(refused.value) == words
    assert Game("kids", ["A", "B"], dice_from="players", first=1).state.current == 1
    game = Game("kids", ["A"], dice_from="players")
    boxes = "ones, twos, threes, fours, fives, sixes"
    game.apply(Roll((), (1, 2, 3, 4, 5)))
    for box in ("chance", 7):
        with pytest.raises(InvalidActionError) as refused:
            game.apply(Score(box))  # type: ignore[arg-type]
        assert str(refused.value) == f"“{box}” is not a box of kids; the boxes are: {boxes}"
    for box in boxes.split(", "):
        game.apply(Score(box))
        if not game.is_over:
            game.apply(Roll((), (1, 2, 3, 4, 5)))
    for action in (Roll((), (1, 2, 3, 4, 5)), Score("ones")):
        with pytest.raises(IllegalActionError) as refused:
            game.apply(action)
        assert str(refused.value) == "the game is over; no more actions"


def test_a_game_made_with_nothing_given_is_one_players_yatzy_on_a_63_bit_seed() -> None:
    """Game(): Scandinavian Yatzy for "Player 1"; a game given no seed draws one of 63 bits
    (web/static/fair.js reads seeds as 63-bit whole numbers): never 2**63 or more, and in 64
    games one at least 2**62 (all 64 below it: a chance of 2**-64)."""
    game = Game()
    assert (game.ruleset.name, [p.name for p in game.state.players]) == ("yatzy", ["Player 1"])
    seeds = [Game(seed=None).seed for _ in range(64)]
    assert all(isinstance(s, int) and 0 <= s < 2**63 for s in seeds)
    assert max(seeds) >= 2**62


def test_a_forced_card_offers_the_next_box_in_order_and_none_once_full() -> None:
    """docs/rules.md, Forced Yatzy: the boxes are filled in a fixed order, so the only open box
    is the next one; a full card has none."""
    rs = get_ruleset("forced")
    assert rs.order is not None
    card: dict[str, int] = {}
    for box in rs.order:
        assert rs.open_categories(card) == [box]
        card[box] = 0
    assert rs.open_categories(card) == []


def test_refusals_of_a_keep_say_what_is_wrong_in_whole() -> None:
    """checks.keep's refusals through the engine, each compared in full: a keep on the turn's
    first roll, dice not on the table (a face missing, a face once too often), every die kept,
    nothing kept under must_keep_one; and what is not an action at all."""
    g = Game("yatzy", ["A"], dice_from="players")
    with pytest.raises(IllegalActionError) as refused:
        g.apply(Roll((6,), (1, 2, 3, 4)))
    assert str(refused.value) == "the first roll of a turn throws all dice; keep nothing"
    g.apply(Roll((), (1, 2, 3, 4, 4)))
    for kept in ((6,), (1, 1)):
        with pytest.raises(IllegalActionError) as refused:
            g.apply(Roll(kept, (5,) * (5 - len(kept))))
        shown = " ".join(map(str, kept))
        assert str(refused.value) == f"cannot keep {shown}: the dice on the table are 1 2 3 4 4"
    with pytest.raises(IllegalActionError) as refused:
        g.apply(Roll((1, 2, 3, 4, 4), ()))
    assert str(refused.value) == "keeping every die would spend a roll for nothing; keep fewer dice or score"
    g.apply(Roll((1, 2, 3, 4), (6,)))  # four of the five kept: allowed
    with pytest.raises(InvalidActionError) as refused:
        g.apply("k 1234")  # type: ignore[arg-type]
    assert str(refused.value) == "not an action: k 1234"
    strict = Game(get_ruleset("yatzy", must_keep_one=True), ["A"], dice_from="players")
    strict.apply(Roll((), (1, 2, 3, 4, 4)))
    with pytest.raises(IllegalActionError) as refused:
        strict.apply(Roll((), (6, 6, 6, 6, 6)))
    assert str(refused.value) == "house rule must_keep_one: keep at least one die to re-roll"
    strict.apply(Roll((4,), (6, 6, 6, 6)))
    assert strict.state.dice == (4, 6, 6, 6, 6)


def test_a_roll_the_game_throws_keeps_the_player_it_names() -> None:
    """play() rolls the dice of a Roll that names its player, and the player is checked and
    logged as with any action: the one whose turn it is, not the other."""
    g = Game("yatzy", ["A", "B"], seed=5)
    with pytest.raises(IllegalActionError) as refused:
        g.play(Roll(player=1))
    assert str(refused.value) == "it is player 0 (A)'s turn, not player 1's"
    assert g.log == []
    g.play(Roll(player=0))
    assert len(g.log) == 1 and g.log[0].player == 0 and g.log[0].result == g.state.dice


def test_forced_order_message() -> None:
    g = Game("pakko", ["a"], seed=1)
    g.roll()
    in_order = "^this game fills the boxes in order: the next one is 1 Ones$"
    with pytest.raises(IllegalActionError, match=in_order):
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
    with pytest.raises(IllegalActionError, match="^nothing to undo$"):
        g.undo()
    g.roll()
    with pytest.raises(IllegalActionError, match="^a roll cannot be undone: its dice have been seen$"):
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
    for field, match in (("seed", "^the saved game has no “seed” field$"),
                         ("format", "^this file has no save format number; it is not a saved game$")):
        data = finished_save()
        del data[field]
        with pytest.raises(InvalidActionError, match=match):
            Game.from_dict(data)
    data = finished_save()
    data["format"] = 99
    unknown = "^this saved game has format 99; this version reads formats 1 and 2$"
    with pytest.raises(InvalidActionError, match=unknown):
        Game.from_dict(data)
    data = finished_save()
    data["seed"] = "7"
    with pytest.raises(InvalidActionError, match="^the saved game's seed must be a whole number$"):
        Game.from_dict(data)
    for bad, words in (([1, 2], "each logged action is a JSON object"),
                       ({"roll": {"keep": []}}, "malformed action in the saved game: {action}"),
                       ({"hop": {}},
                        "unknown action in the saved game: {action}; expected roll, score or restore")):
        data = finished_save()
        data["log"][0] = bad
        with pytest.raises(InvalidActionError) as refused:
            Game.from_dict(data)
        assert str(refused.value) == words.format(action=json.dumps(bad))
    for field, wrong, words in (("seats", "ab", "the saved game's seats and log must be lists"),
                                ("log", {}, "the saved game's seats and log must be lists"),
                                ("options", [], "the saved game's options must be an object"),
                                ("amendments", {}, "the saved game's amendments must be a list")):
        data = finished_save()
        data[field] = wrong
        with pytest.raises(InvalidActionError) as refused:
            Game.from_dict(data)
        assert str(refused.value) == words


def test_a_save_keeps_the_rulesets_options_and_reads_absent_fields_as_their_defaults() -> None:
    game = Game(get_ruleset("yatzy", bonus_threshold=50), ["a"], seed=4)
    game.roll()
    game.score("chance")
    data = json.loads(game.to_json())
    assert data["options"]["bonus_threshold"] == 50
    assert Game.from_dict(data).ruleset.options == game.ruleset.options
    for key in ("options", "roll_off", "first", "dice_from", "amendments"):
        del data[key]
    save = saves.read(data)
    assert (save.roll_off, save.first, save.dice_from, save.amendments) == (False, None, "server", ())
    assert save.ruleset.options == get_ruleset("yatzy").options


def test_save_with_edited_dice_is_refused() -> None:
    data = finished_save()
    rolls = [i for i, a in enumerate(data["log"]) if "roll" in a]
    i = rolls[3]
    result = data["log"][i]["roll"]["result"]
    edited = [6 if d != 6 else 5 for d in result]
    data["log"][i]["roll"]["result"] = edited
    with pytest.raises(InvalidActionError) as refused:
        Game.from_dict(data)
    shown, drawn = (" ".join(map(str, sorted(d))) for d in (edited, result))
    assert str(refused.value) == (f"action {i + 1} (a roll) shows {shown}, "
                                  f"but this game's seed rolls {drawn}: "
                                  "the saved game was changed by hand or damaged")


def test_save_with_an_illegal_action_names_it() -> None:
    data = finished_save()
    data["log"][1] = {"score": {"category": "nope"}}
    with pytest.raises(InvalidActionError) as refused:
        Game.from_dict(data)
    data["log"] = data["log"][:1]
    alone = Game.from_dict(data)
    with pytest.raises(InvalidActionError) as plain:
        alone.apply(Score("nope"))
    assert str(refused.value) == f"action 2 of the saved game: {plain.value}"


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


# ---- turns, clones and corrections in the save (the core layer's mutation survivors) ---------
def _typed(dice: tuple[int, ...], box: str) -> list[Roll | Score]:
    return [Roll((), dice), Score(box)]


def test_turns_cut_the_log_after_each_score_and_end_with_the_unfinished_one() -> None:
    game = Game("yatzy", ["A", "B"], dice_from="players")
    for action in [*_typed((6, 6, 6, 6, 6), "yatzy"),
                   Roll((), (1, 1, 2, 3, 4)), Roll((2, 3, 4), (1, 5)), Score("small_straight"),
                   Roll((), (2, 2, 3, 3, 3))]:
        game.apply(action)
    assert [(t.player, t.start, t.stop) for t in game.turns()] == [(0, 0, 2), (1, 2, 5), (0, 5, 6)]
    assert game.totals() == [50, 15]  # Yatzy 50, Small Straight 1-2-3-4-5 15 (docs/rules.md)


def test_a_clone_plays_on_without_touching_the_original() -> None:
    game = Game("yatzy", ["A", "B"], dice_from="players")
    for action in [*_typed((1, 2, 3, 4, 5), "chance"), *_typed((1, 2, 3, 4, 5), "chance")]:
        game.apply(action)
    game.amend(0, _typed((1, 1, 2, 3, 4), "chance"))
    saved = game.to_json()
    twin = game.clone()
    assert (twin.movers, twin.roll_offs, twin.amendments) == (game.movers, game.roll_offs, game.amendments)
    assert twin.state == game.state
    for action in _typed((6, 6, 6, 6, 6), "yatzy"):
        twin.apply(action)
    twin.amend(1, _typed((6, 6, 6, 6, 5), "chance"))
    assert twin.totals() == [11 + 50, 29]  # Chance is the sum of the dice, Yatzy 50
    assert game.to_json() == saved and game.totals() == [11, 15]
    assert Game.from_json(saved).state == game.state


def test_corrections_before_and_after_the_end_survive_a_save() -> None:
    game = Game("yatzy", ["A"], dice_from="players")
    boxes = list(game.ruleset.category_ids)
    game.apply(Roll((), (1, 2, 3, 4, 5)))
    game.apply(Score(boxes[0]))
    one_turn = "^there is 1 finished turn to correct; turns are numbered from 0$"
    with pytest.raises(IllegalActionError, match=one_turn):
        game.amend(True, _typed((1, 1, 1, 1, 1), boxes[0]))  # a bool is not a turn number
    with pytest.raises(InvalidActionError, match="^a corrected turn is its rolls and ends with one score$"):
        game.amend(0, [*_typed((1, 1, 1, 1, 1), boxes[0]), *_typed((1, 1, 1, 1, 1), boxes[1])])
    first = game.amend(0, _typed((2, 2, 3, 4, 5), boxes[0]))
    for box in boxes[1:]:
        game.apply(Roll((), (1, 2, 3, 4, 5)))
        game.apply(Score(box))
    assert game.is_over
    before = game.totals()[0]
    last = game.amend(0, _typed((1, 1, 1, 1, 1), boxes[0]))
    assert boxes[0] == "ones" and game.totals() == [before + 5]  # Ones: 0 with 2-2-3-4-5, 5 with five 1s
    assert (first.after_end, last.after_end) == (False, True)
    assert last.old == tuple(_typed((2, 2, 3, 4, 5), "ones"))
    assert last.new == tuple(_typed((1, 1, 1, 1, 1), "ones"))
    written = json.loads(game.to_json())["amendments"]
    assert "after_end" not in written[0] and written[1]["after_end"] is True
    loaded = Game.from_json(game.to_json())
    assert loaded.amendments == game.amendments == [first, last]
    written[1]["turn"] = "0"  # a turn number written as text still reads
    data = json.loads(game.to_json())
    data["amendments"] = written
    assert Game.from_dict(data).amendments == [first, last]
    data["amendments"] = [{"turn": 0, "old": []}]
    with pytest.raises(InvalidActionError) as refused:
        Game.from_dict(data)
    malformed = json.dumps(data["amendments"][0])
    assert str(refused.value) == f"a malformed amendment in the saved game: {malformed}"


def test_the_joker_rule_refusal_names_the_box_and_the_boxes_allowed() -> None:
    """Yahtzee: a second Yahtzee with the Yahtzee box filled and its upper box open must go
    there (docs/rules.md); Chance is box 13 of 13 and Fours box 4."""
    game = Game("yahtzee", ["A"], dice_from="players")
    for action in [*_typed((3, 3, 3, 3, 3), "yahtzee"), Roll((), (4, 4, 4, 4, 4))]:
        game.apply(action)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Score("chance"))
    joker = "box 13 Chance cannot take these dice now (joker rule); you may score: 4 Fours"
    assert str(refused.value) == joker
    # Fours filled: any open lower box takes it (docs/rules.md numbers Yahtzee's 13 boxes), not Ones
    game.apply(Score("fours"))
    game.apply(Roll((), (4, 4, 4, 4, 4)))
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Score("ones"))
    lower = ("7 Three of a Kind, 8 Four of a Kind, 9 Full House, 10 Small Straight, 11 Large Straight, "
             "13 Chance")
    assert str(refused.value) == f"box 1 Ones cannot take these dice now (joker rule); you may score: {lower}"


def test_roll_offs_throw_one_die_each_and_every_face_turns_up() -> None:
    faces = set()
    for seed in range(40):
        game = Game("yatzy", ["A", "B", "C"], seed=seed, roll_off=True)
        faces.update(die for throw in game.roll_offs for die in throw.values())
        highest = max(game.roll_offs[-1].values())
        assert [s for s, die in game.roll_offs[-1].items() if die == highest] == [game.first]
    assert faces == {1, 2, 3, 4, 5, 6}


def test_two_players_roll_off_too_and_either_may_start() -> None:
    """A roll-off needs two players or more: two roll one die each (again on a tie), one alone
    does not roll at all."""
    starters = set()
    for seed in range(20):
        game = Game("yatzy", ["A", "B"], seed=seed, roll_off=True)
        assert game.roll_offs and all(set(throw) == {0, 1} for throw in game.roll_offs)
        last = game.roll_offs[-1]
        assert last[game.first] > last[1 - game.first] and game.state.current == game.first
        starters.add(game.first)
    assert starters == {0, 1}
    solo = Game("yatzy", ["A"], seed=1, roll_off=True)
    assert (solo.roll_offs, solo.first) == ([], 0)


def test_following_a_log_takes_its_dice_unless_told_to_check_them_against_the_seed() -> None:
    """Game.follow applies logged rolls with their dice; only with check_dice must each be
    the dice this game's seed rolls (a room's relay checks a played game's, not a typed one's)."""
    played = Game("yatzy", ["A"], seed=3)
    played.roll()
    played.score("chance")
    other = Game("yatzy", ["A"], seed=4)
    other.follow(played.log)
    assert other.log == played.log and other.state == played.state
    again = Game("yatzy", ["A"], seed=4)
    with pytest.raises(InvalidActionError) as refused:
        again.follow(played.log, check_dice=True)
    rolled = played.log[0].result
    drawn = Game("yatzy", ["A"], seed=4).roll()
    assert rolled != drawn
    assert str(refused.value) == (f"action 1 (a roll) shows {' '.join(map(str, rolled))}, but this game's "
                                  f"seed rolls {' '.join(map(str, drawn))}: "
                                  "the saved game was changed by hand or damaged")
    assert again.log == []
    same = Game("yatzy", ["A"], seed=3)
    same.follow(played.log, check_dice=True)  # the seed's own dice pass the check
    assert same.log == played.log and same.state == played.state


def test_text_that_is_not_json_is_refused_with_the_parsers_words() -> None:
    with pytest.raises(json.JSONDecodeError) as parser:
        json.loads("{nope")
    with pytest.raises(InvalidActionError) as refused:
        Game.from_json("{nope")
    assert str(refused.value) == f"the saved game is not valid JSON: {parser.value}"
    with pytest.raises(InvalidActionError, match="^a saved game is a JSON object$"):
        Game.from_json("[1, 2]")


def test_a_replay_by_default_takes_the_logs_dice_with_no_roll_off_and_the_server_rolling() -> None:
    typed = Game("yatzy", ["A", "B"], dice_from="players")
    for action in _typed((6, 6, 6, 6, 6), "yatzy"):
        typed.apply(action)
    again = Game.replay(typed.ruleset, ["A", "B"], 5, typed.log)  # seed 5 rolls other dice
    assert (again.roll_offs, again.first, again.dice_from) == ([], 0, "server")
    assert again.totals() == [50, 0] and again.state.current == 1
    with pytest.raises(IllegalActionError) as refused:  # the second player scores before rolling
        Game.replay(typed.ruleset, ["A", "B"], 5, [*typed.log, Score("chance")],
                    where=lambda number: f"turn {number}: {{error}}")
    assert str(refused.value).startswith("turn 3: ") and len(str(refused.value)) > len("turn 3: ")


def test_the_winners_are_every_player_with_the_highest_total() -> None:
    game = Game("yatzy", ["A", "B", "C"], dice_from="players")
    assert game.winners() == [0, 1, 2] and game.last_mover() is None
    for action in [*_typed((6, 6, 6, 6, 6), "yatzy"), *_typed((1, 2, 3, 4, 5), "small_straight"),
                   *_typed((2, 2, 2, 2, 2), "yatzy")]:
        game.apply(action)
    assert game.totals() == [50, 15, 50] and game.winners() == [0, 2] and game.last_mover() == 2


def test_roll_reaching_keeps_every_die_it_can_but_never_all_five() -> None:
    """A throw typed at a real table becomes the roll that keeps the most dice of the table
    (the multiset common to both), at most four: a throw that changed nothing re-rolled one."""
    from collections import Counter

    tables = [(1, 1, 2, 3, 4), (6, 6, 6, 6, 6), (1, 2, 3, 4, 5), (2, 2, 3, 5, 6)]
    fresh = Game("yatzy", ["A"], dice_from="players")
    assert fresh.roll_reaching([5, 1, 3, 1, 2]) == Roll((), (1, 1, 2, 3, 5))
    for before in tables:
        game = Game("yatzy", ["A"], dice_from="players")
        game.apply(Roll((), before))
        for after in tables:
            roll = game.roll_reaching(list(reversed(after)))
            assert roll.result is not None and tuple(sorted(roll.keep + roll.result)) == after
            assert roll.result == tuple(sorted(roll.result))
            assert not Counter(roll.keep) - Counter(before)
            assert len(roll.keep) == min(4, sum((Counter(before) & Counter(after)).values()))
    with pytest.raises(InvalidActionError) as refused:
        fresh.roll_reaching([1, 2, 3])
    assert str(refused.value) == f"{fresh.ruleset.title} is played with 5 dice; you typed 3"


def test_amend_refuses_in_the_players_words_and_keeps_the_game_a_scorekeepers() -> None:
    game = Game("yatzy", ["A", "B"], dice_from="players")
    for action in [*_typed((1, 2, 3, 4, 5), "chance"), *_typed((1, 2, 3, 4, 5), "chance")]:
        game.apply(action)
    two_turns = "^there are 2 finished turns to correct; turns are numbered from 0$"
    for turn in (2, "0", -1):
        with pytest.raises(IllegalActionError, match=two_turns):
            game.amend(turn, _typed((6, 6, 6, 6, 6), "yatzy"))  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError, match="^a corrected turn is its rolls and ends with one score$"):
        game.amend(0, [Roll((), (6, 6, 6, 6, 6)), Score("yatzy"), Score("chance")])
    game.amend(0, _typed((6, 6, 6, 6, 6), "yatzy"))
    assert game.dice_from == "players" and game.totals() == [50, 15]
    game.apply(Roll((), (2, 2, 2, 2, 2)))  # typed dice still taken
    assert game.state.dice == (2, 2, 2, 2, 2)


def test_the_outcome_ranks_the_players_by_total_and_a_version_1_save_reads_bot_seats() -> None:
    game = Game("kids", ["Ann", "Bo"], dice_from="players")
    for face, box in enumerate(("ones", "twos", "threes", "fours", "fives", "sixes"), 1):
        for dice in ((face,) * 4 + (face % 6 + 1,), (face,) * 5):  # Ann four of the face, Bo five
            game.apply(Roll((), dice))
            game.score(box)
    outcome = game.outcome()
    assert outcome is not None and game.totals()[1] > game.totals()[0]
    assert [(s.player, s.name, s.total, s.rank) for s in outcome.standings] == [
        (1, "Bo", game.totals()[1], 1), (0, "Ann", game.totals()[0], 2)]
    data = finished_save()
    del data["seats"]
    data["format"], data["players"] = 1, ["Ann", "Greedy (bot)", "win (bot)", "Optimal (bot)"]
    assert [s.to_dict() for s in saves.read(data).seats] == [
        Seat.stored("Ann").to_dict(), *(Seat.bot(level).to_dict() for level in ("greedy", "win", "optimal"))]
    data["players"] = ["Ann", 7]
    with pytest.raises(InvalidActionError, match="^the saved game's players must be names$"):
        Game.from_dict(data)


@pytest.mark.parametrize(("lang", "kept", "said"), [
    ("fi", 1, "kun 1 noppa pidetään, heitetään 4, ei 6"),
    ("fi", 2, "kun 2 noppaa pidetään, heitetään 3, ei 6"),
    ("ru", 1, "при 1 оставленном кубике бросают 4, а не 6"),
    ("ru", 2, "при 2 оставленных кубиках бросают 3, а не 6"),
])
def test_a_rolls_wrong_count_of_dice_agrees_with_the_dice_kept(lang: str, kept: int, said: str) -> None:
    """The refusal's dice agree with their number in each language (one die, two dice)."""
    g = Game("yatzy", ["A"], seed=5)
    dice = g.roll()
    with language(lang), pytest.raises(InvalidActionError) as refused:
        g.apply(Roll(dice[:kept], (1,) * 6))
    assert str(refused.value) == said
