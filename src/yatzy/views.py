"""What one viewer may see of a game: a frozen, JSON-ready picture with nothing secret.

A view holds every scorecard (with bonus progress), the table (dice, rolls, the DOZZY
board, the outcome) and, for the person whose turn it is, the moves they may make. Every
front end draws from it, so none re-derives a rule.

A view never holds the dice seed or the RNG state, nor anything computed from them: a
local save (``Game.to_dict``) keeps the seed so a loaded game rolls on, but a view goes to
clients, and whoever has the seed knows every die to come.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from .bots import level_name
from .errors import InvalidActionError
from .game import Game, Outcome, Roll, Score
from .i18n import _, check_language, language
from .names import category_name, label
from .rules import ALL_TILES, Bonus, Card, Ruleset

__all__ = ["BoardView", "BonusView", "BoxView", "GameView", "MoveView", "OutcomeView", "PlayerView",
           "ScoreOption", "StandingView", "and_list", "as_seen_by", "bonus_progress",
           "game_view", "last_move", "outcome_view", "plain"]


def plain(value: Any) -> Any:
    """A value as JSON-ready data: dataclasses become dicts, tuples lists, sets sorted lists.

    Only JSON types come out, so ``json.loads(json.dumps(plain(x))) == plain(x)``.
    """
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value




def and_list(items: Sequence[str]) -> str:
    """ "Ann", "Ann and Bo", "Ann, Bo and Cy", in the current language."""
    if len(items) < 2:
        return "".join(items)
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


@dataclass(frozen=True)
class BoxView:
    """One box of a scorecard. ``number`` is its place on the ruleset's card, fixed all game."""

    number: int
    id: str
    name: str
    section: str
    points: int | None
    """None while the box is open."""
    max: int


@dataclass(frozen=True)
class BonusView:
    """How far one player is on one bonus."""

    id: str
    name: str
    boxes: tuple[int, ...]
    """The numbers of the boxes that count towards it."""
    threshold: int
    strict: bool
    """True when the subtotal must exceed the threshold."""
    worth: int
    """The points the bonus gives when earned."""
    points: int
    """The points earned: ``worth`` or 0."""
    subtotal: int
    needed: int
    """Points still missing (0 once earned)."""
    reachable: bool
    """Earned, or the open boxes at their maxima would still earn it."""
    pace: float
    """Ahead (positive) or behind (negative) of par: the subtotal minus the par of the filled
    boxes, par being each box's share of the target by its maximum (3 of each face for 63)."""


@dataclass(frozen=True)
class PlayerView:
    """One seat: its scorecard, bonuses, totals and who plays it."""

    seat: int
    name: str
    kind: str
    """person or bot."""
    level: str | None
    """The bot's level; None for a person."""
    level_name: str | None
    """The bot's level in the view's language ("greedy", "ahne" in Finnish); None for a person."""
    current: bool
    boxes: tuple[BoxView, ...]
    bonuses: tuple[BonusView, ...]
    yahtzee_bonus: int
    """Points from extra Yahtzees (0 in games without them)."""
    total: int
    rank: int
    """1 is the best; equal totals share a rank."""
    bank: int
    """Saved rolls as of the player's last score (Maxi, Osto)."""


@dataclass(frozen=True)
class BoardView:
    """DOZZY's shared tile board."""

    tiles_in: tuple[int, ...]
    tiles_out: tuple[int, ...]


@dataclass(frozen=True)
class ScoreOption:
    """An open box the dice on the table may fill now, and what it would do."""

    number: int
    id: str
    name: str
    points: int
    tiles_out: tuple[int, ...]
    """DOZZY: tiles this score sends out (empty elsewhere)."""
    returns: tuple[tuple[int, ...], ...]
    """DOZZY: the choices of tiles that may come back with it (empty elsewhere)."""


@dataclass(frozen=True)
class MoveView:
    """The game's last move: who made it, what it was, and whether undo may take it back."""

    player: int
    kind: str
    """roll, score or restore."""
    action: str
    """The move in the action notation."""
    number: int | None
    """A score's box, by its fixed number (None for other moves)."""
    undoable: bool
    """A person's score or tile return, which undo takes back until the next roll."""


@dataclass(frozen=True)
class StandingView:
    player: int
    name: str
    total: int
    rank: int


@dataclass(frozen=True)
class OutcomeView:
    """How the game ended: the standings best first and the winner or winners."""

    termination: str
    standings: tuple[StandingView, ...]
    winners: tuple[int, ...]
    corrected_after_end: bool = False
    """A scorekeeper game's turn was corrected after the end: these standings are the
    corrected ones (a front end says so beside them)."""


@dataclass(frozen=True)
class GameView:
    """A game as one viewer may see it. Build it with :func:`game_view`."""

    version: int
    """The game's :attr:`~yatzy.game.Game.version` (every action, undo and correction counts
    one): a client can tell a stale view."""
    seq: int
    """The number of events the session had sent when the view was made (0 outside a session):
    the view shows the game after the event with this ``seq``."""
    ruleset: str
    title: str
    """The ruleset's title in the view's language."""
    dice_from: str
    """"server" (the game rolls) or "players" (a scorekeeper game: people type the dice they
    threw at a real table, and a roll in ``legal_actions`` stands for typing them)."""
    lang: str
    viewer: int | None
    """The seat this view is for; None for the table (hot seat) or a spectator."""
    players: tuple[PlayerView, ...]
    current: int | None
    """Whose turn it is; None once the game is over."""
    round: int
    rounds: int
    dice: tuple[int, ...] | None
    """The dice on the table; None before the turn's first roll."""
    rolls_left: int
    """Normal rolls left this turn (saved rolls apart)."""
    saved_rolls: int
    """Saved rolls the current player may still use this turn."""
    board: BoardView | None
    """DOZZY's tiles; None in other games."""
    has_yahtzee_bonus: bool
    """Extra Yahtzees earn bonus points in this game (Yahtzee)."""
    has_saved_rolls: bool
    """Unused rolls are saved for later turns in this game (Maxi, Osto)."""
    may_restore: int
    """DOZZY: how many tiles may come back now (0 if none)."""
    over: bool
    outcome: OutcomeView | None
    last: MoveView | None
    """The last move (None before any)."""
    legal_actions: tuple[str, ...]
    """The moves the viewer may make now, in the action notation (empty unless it is their turn)."""
    score_options: tuple[ScoreOption, ...]
    """What each open box would score now (empty unless it is the viewer's turn)."""

    def to_dict(self) -> dict[str, Any]:
        return plain(self)  # type: ignore[no-any-return]

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)


def bonus_progress(ruleset: Ruleset, bonus: Bonus, card: Card, lang: str = "en") -> BonusView:
    """Where a card stands on a bonus: subtotal, points missing, whether still reachable, pace."""
    target = bonus.threshold + int(bonus.strict)
    subtotal = sum(card.get(c, 0) for c in bonus.categories)
    maxima = {c: ruleset.by_id[c].max for c in bonus.categories}
    earned = bonus.earned(card)
    whole = sum(maxima.values())
    # the pace, subtotal - target * (the filled boxes' maxima / all maxima), in integers: one
    # rounding, as a Fraction's (which cost a tenth of a view)
    ahead = subtotal * whole - target * sum(m for c, m in maxima.items() if c in card)
    return BonusView(
        id=bonus.id, name=label("bonus", lang),
        boxes=tuple(ruleset.category_ids.index(c) + 1 for c in bonus.categories),
        threshold=bonus.threshold, strict=bonus.strict, worth=bonus.points,
        points=bonus.points if earned else 0, subtotal=subtotal,
        needed=0 if earned else target - subtotal, reachable=ruleset.bonus_reachable(bonus, card),
        pace=ahead / whole,
    )


def outcome_view(outcome: Outcome, corrected_after_end: bool = False) -> OutcomeView:
    return OutcomeView(
        outcome.termination.value,
        tuple(StandingView(s.player, s.name, s.total, s.rank) for s in outcome.standings),
        outcome.winners,
        corrected_after_end,
    )


def last_move(game: Game) -> MoveView | None:
    """The game's last move and whether undo may take it back: a person's score or tile
    return may be taken back; a roll (its dice are seen) or a bot's move may not, except
    typed dice in a scorekeeper game."""
    if not game.log:
        return None
    action, mover = game.log[-1], game.last_mover()
    assert mover is not None
    kind = "roll" if isinstance(action, Roll) else "score" if isinstance(action, Score) else "restore"
    number = game.ruleset.category_ids.index(action.category) + 1 if isinstance(action, Score) else None
    return MoveView(mover, kind, str(action), number,
                    undoable=(not isinstance(action, Roll) or game.dice_from == "players")
                    and not game.seats[mover].is_bot)


def _player_view(game: Game, index: int, lang: str, totals: list[int]) -> PlayerView:
    rs, seat = game.ruleset, game.seats[index]
    p = game.state.players[index]
    boxes = tuple(
        BoxView(n, c.id, category_name(c.id), c.section, p.card.get(c.id), c.max)
        for n, c in enumerate(rs.categories, 1)
    )
    return PlayerView(
        seat=index, name=p.name, kind=seat.kind, level=seat.level,
        level_name=None if seat.level is None else level_name(seat.level),
        current=index == game.state.current and not game.is_over, boxes=boxes,
        bonuses=tuple(bonus_progress(rs, b, p.card, lang) for b in rs.bonuses),
        yahtzee_bonus=p.extra, total=totals[index],
        rank=1 + sum(t > totals[index] for t in totals), bank=p.bank,
    )


def _score_options(game: Game) -> tuple[ScoreOption, ...]:
    rs = game.ruleset
    options = []
    for cat, points in game.score_options().items():
        gone: tuple[int, ...] = ()
        returns: tuple[tuple[int, ...], ...] = ()
        if rs.uses_board:
            out, choices = game.tile_moves(cat)
            gone, returns = tuple(sorted(out)), tuple(tuple(sorted(c)) for c in choices)
        options.append(ScoreOption(rs.category_ids.index(cat) + 1, cat, category_name(cat), points,
                                   gone, returns))
    return tuple(options)


def game_view(game: Game, viewer: int | None = None, lang: str = "en", seq: int = 0) -> GameView:
    """The game as ``viewer`` sees it (a seat index, or None for the table or a spectator),
    with every name in ``lang``; ``seq`` is the session's count of events sent so far.

    The legal actions and score options go to the seat whose turn it is when a person plays
    it, or to the table viewer in hot-seat play; every other viewer gets empty lists.

    :raises InvalidActionError: the viewer is not a seat of this game, or the language is
        not one of the six.
    """
    lang = check_language(lang)
    with language(lang):
        return _game_view(game, viewer, lang, seq)


def _game_view(game: Game, viewer: int | None, lang: str, seq: int) -> GameView:
    n = len(game.seats)
    if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                               or not 0 <= viewer < n):
        raise InvalidActionError(
            _("the viewer is a seat number 0 to {last}, or none for the table").format(last=n - 1))
    rs, st, over = game.ruleset, game.state, game.is_over
    totals = game.totals()
    acting = (not over and not game.seats[st.current].is_bot
              and viewer in (None, st.current))
    normal, saved = (0, 0) if over else game.rolls_split()
    outcome = game.outcome()
    return GameView(
        version=game.version, seq=seq, ruleset=rs.name, title=_(rs.title), dice_from=game.dice_from,
        lang=lang, viewer=viewer,
        players=tuple(_player_view(game, i, lang, totals) for i in range(n)),
        current=None if over else st.current, round=game.round_number, rounds=rs.turns,
        dice=st.dice, rolls_left=normal, saved_rolls=saved,
        board=BoardView(tuple(sorted(ALL_TILES - st.out)), tuple(sorted(st.out))) if rs.uses_board else None,
        has_yahtzee_bonus=bool(getattr(rs, "yahtzee_bonus", False)), has_saved_rolls=rs.saved_rolls,
        may_restore=game.may_restore(), over=over,
        outcome=None if outcome is None else outcome_view(outcome, game.corrected_after_end),
        last=last_move(game),
        legal_actions=tuple(str(a) for a in game.legal_actions()) if acting else (),
        score_options=_score_options(game) if acting else (),
    )


def as_seen_by(table: GameView, viewer: int | None) -> GameView:
    """The table's view (``game_view(game, None, ...)``) as ``viewer`` sees it: equal to
    ``game_view(game, viewer, ...)``, made in microseconds instead of a view's whole making
    (every seat of a room shares one). Only the viewer and the moves differ between views:
    the moves go to the seat whose turn it is (the table's view has them when a person is to
    play), every other seat gets none."""
    if viewer is None:
        return table
    if viewer == table.current:
        return replace(table, viewer=viewer)
    return replace(table, viewer=viewer, legal_actions=(), score_options=())
