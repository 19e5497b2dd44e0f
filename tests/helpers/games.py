"""Games the tests of several layers share (no tests here): a game played out by bots, and six
DOZZY rounds typed at a scorekeeper table."""

from __future__ import annotations

from collections.abc import Sequence

from yatzy.bots import Player, make_bot
from yatzy.game import Game

DOZZY_ROUNDS = ["r = 22355", "s chance", "r = 14556", "s n10", "r = 13455", "s n5", "r = 22456", "s n11",
                "r = 24456", "s n8 5", "r = 22456", "s n9 8"]
"""Six DOZZY rounds of one player, typed at a scorekeeper table: the last (2 2 4 5 6 in 9, tile
8 back) fixed into Ones leaves a choice of tile 8, 10 or 11 back (the fix tests of every
front end)."""


def bots_for(game: Game, seed: int = 0, people: str | None = None) -> list[Player]:
    """A bot for each seat, seeded ``seed``, ``seed + 1``, ... in seat order: a bot's seat by its
    own level, a person's by ``people`` (by default the greedy bot; on DOZZY's board the dozzy
    bot)."""
    rs = game.ruleset
    person = people or ("dozzy" if rs.uses_board else "greedy")
    return [make_bot(s.level or person, rs, seed=seed + i) for i, s in enumerate(game.seats)]


def play_out(game: Game, players: Sequence[Player] | None = None, *, seed: int = 0,
             people: str | None = None, actions: int | None = None) -> Game:
    """Let ``players`` (by default :func:`bots_for` the game with ``seed`` and ``people``) move
    until the game is over, or for ``actions`` more actions; returns the game."""
    movers = list(players) if players is not None else bots_for(game, seed, people)
    stop = None if actions is None else len(game.log) + actions
    while not game.is_over and (stop is None or len(game.log) < stop):
        game.play(movers[game.state.current].act(game))
    return game
