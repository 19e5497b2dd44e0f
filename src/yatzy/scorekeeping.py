"""Scorekeeper games for front ends: the finished rounds a correction may pick, and a round
written again from the dice and box the players give.

Shared by the terminal app's fix dialog and the line scorekeeper; the engine decides
(:meth:`Game.roll_reaching` finds the roll, :meth:`Session.amend` checks and records).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Roll, Score
from .errors import YatzyError
from .game import Game

__all__ = ["Round", "correction", "correction_boxes", "correction_returns", "round_boxes", "rounds"]


@dataclass(frozen=True)
class Round:
    """A finished turn of a game, as a correction picks it."""

    turn: int
    """Its place among the game's finished turns (what :meth:`Session.amend` takes)."""
    player: int
    number: int
    """The player's round (1 first)."""
    dice: tuple[int, ...]
    """The dice when the box was filled."""
    box: str
    returns: tuple[int, ...] | None = None
    """DOZZY: the tiles that came back as the box was filled (None: nothing to choose)."""


def rounds(game: Game) -> list[Round]:
    """Every finished turn, oldest first."""
    found: list[Round] = []
    played = [0] * len(game.seats)
    for t in game.turns():
        actions = game.log[t.start:t.stop]
        score = actions[-1]
        if not isinstance(score, Score):
            break  # the turn being played
        played[t.player] += 1
        last = next(a for a in reversed(actions) if isinstance(a, Roll))
        dice = tuple(sorted(last.keep + (last.result or ())))
        found.append(Round(len(found), t.player, played[t.player], dice, score.category, score.returns))
    return found


def correction(game: Game, turn: int, dice: tuple[int, ...], box: str,
               returns: tuple[int, ...] | None = None) -> list[Action]:
    """Finished turn ``turn`` written again: its throws as they were but the last one, which now
    shows ``dice``, and ``box`` filled. DOZZY: the tiles ``returns`` come back (by default the
    turn's own when the box stays; :func:`correction_returns` lists the choices).
    Not applied: :meth:`Session.amend` takes it, or refuses it.

    :raises YatzyError: the dice are not a throw of this game (the engine's words).
    """
    head, score, _at, _later = _rewritten(game, turn, dice)
    if returns is None and score.category == box:
        returns = score.returns
    return [*head, Score(box, returns)]


def correction_returns(game: Game, turn: int, dice: tuple[int, ...], box: str) -> list[frozenset[int]]:
    """DOZZY: the tile returns allowed when turn ``turn`` is written again with ``dice`` and
    ``box`` (the engine's :meth:`Game.tile_moves`); fewer than two leave nothing to choose.
    Other rulesets: none.

    :raises YatzyError: the dice are not a throw of this game, or the turn's earlier throws
        no longer lead to them.
    """
    if not game.ruleset.uses_board:
        return []
    _head, _score, at, _later = _rewritten(game, turn, dice)
    return at.tile_moves(box)[1]


def correction_boxes(game: Game, turn: int, dice: tuple[int, ...]) -> dict[str, int]:
    """The boxes finished turn ``turn`` may fill when written again with ``dice``, with the
    points each scores there, in the card's order: the engine's score options at that moment
    under which every later turn still plays (a box a later turn fills, or one that breaks a
    later turn, is left out). Once a player's card is full that is the turn's own box alone.

    :raises YatzyError: the dice are not a throw of this game, or the turn's earlier throws
        no longer lead to them.
    """
    _head, score, at, later = _rewritten(game, turn, dice)
    player = game.state.players[at.state.current]
    unchanged = at.state.dice == rounds(game)[turn].dice  # the same throw: every later turn stands
    allowed: dict[str, int] = {}
    for box, points in at.score_options().items():
        if box != score.category and box in player.card:
            continue  # a later turn fills it: the engine would refuse that turn (tried no further)
        if box == score.category and unchanged:
            allowed[box] = points
            continue
        returns = at.tile_moves(box)[1] if game.ruleset.uses_board else []
        ways = [tuple(sorted(r)) for r in returns] if len(returns) > 1 else [None]
        if any(_plays_on(at, Score(box, r), later) for r in ways):
            allowed[box] = points
    return allowed


def round_boxes(game: Game) -> list[list[str]]:
    """For each finished turn (as :func:`rounds` lists them), the boxes a correction with its
    dice as they are may fill: the engine's score options at that moment, less the boxes a
    later turn fills, in one pass over the log (the page's list of rounds). A box that breaks
    a later turn otherwise (DOZZY's board, a joker) is not tried here: the correction's
    refusal says why."""
    walk = Game.replay(game.ruleset, game.seats, game.seed, [], first=game.first, dice_from="players")
    found: list[list[str]] = []
    for action, mover in zip(game.log, game.movers, strict=True):
        if isinstance(action, Score):
            own, card = game.ruleset.category(action.category).id, game.state.players[mover].card
            found.append([box for box in walk.score_options() if box == own or box not in card])
        walk.apply(action)
    return found


def _plays_on(at: Game, score: Score, later: list[Action]) -> bool:
    """Whether the engine takes ``score`` here and every later action after it (tried on a
    copy: what Game.amend replays, the turns before left out)."""
    trial = at.clone()
    try:
        for action in [score, *later]:
            trial.apply(action)
    except YatzyError:
        return False
    return True


def _rewritten(game: Game, turn: int,
               dice: tuple[int, ...]) -> tuple[list[Action], Score, Game, list[Action]]:
    """The turn's throws with the last one showing ``dice``, the turn's score as it was, the
    game once those throws are made (where the box is filled) and the actions after the turn."""
    t = [u for u in game.turns() if isinstance(game.log[u.stop - 1], Score)][turn]
    old = game.log[t.start:t.stop]
    last = max(i for i, a in enumerate(old) if isinstance(a, Roll))
    at = Game.replay(game.ruleset, game.seats, game.seed, [*game.log[:t.start], *old[:last]],
                     first=game.first, dice_from="players")
    score = old[-1]
    assert isinstance(score, Score)
    roll = at.roll_reaching(dice)
    at.apply(roll)
    return [*old[:last], roll], score, at, list(game.log[t.stop:])
