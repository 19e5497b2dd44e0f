"""The game engine: a state plus an append-only log of actions.

Every change of state goes through :meth:`Game.apply`. Dice outcomes are part of the
log, so replaying the log rebuilds the state exactly, and a saved game *is* its log
(plus the seed that lets a loaded game go on rolling the same dice).
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from . import checks, saves
from .actions import Action, Restore, Roll, Score
from .dice import Dice, normalize, show_dice, sub_multisets
from .errors import IllegalActionError, InvalidActionError, YatzyError
from .i18n import _, ngettext
from .registry import get_ruleset
from .rules import Ruleset
from .seats import Seat
from .state import Amendment, GameState, Outcome, PlayerState, Standing, Termination, Turn

__all__ = ["DICE_FROM", "Action", "Amendment", "Game", "GameState", "Outcome", "PlayerState", "Restore",
           "Roll", "Score", "Seat", "Standing", "Termination", "Turn"]

DICE_FROM = ("server", "players")
"""Where a game's dice come from: the game's seeded RNG, or people at a real table who type
the dice they threw (a scorekeeper game)."""


class Game:
    """A game of any ruleset for one or more players. Mutate it only through its methods.

    The engine sets no upper limit on players (the rule book says 1..N); a front end may
    cap what it can show.
    """

    def __init__(
        self, ruleset: Ruleset | str = "yatzy", players: Sequence[str | Seat] = ("Player 1",),
        seed: int | None = None, *, roll_off: bool = False, first: int | None = None,
        dice_from: str = "server",
    ) -> None:
        """Start a game. ``players`` are names (people) or seats; with ``roll_off`` each
        player rolls one die, the highest starts, and ties roll again (from the seed);
        ``first`` names the starter instead (a roll-off made at a real table).
        ``dice_from="players"`` makes a scorekeeper game: every roll carries the dice the
        players threw at the table (see :meth:`roll_reaching`), the seed rolls nothing.

        :raises InvalidActionError: no players, a bad ``first``, both ``first`` and
            ``roll_off``, an unknown ``dice_from``, or a roll-off in a scorekeeper game.
        """
        if dice_from not in DICE_FROM:
            raise InvalidActionError(_("dice come from the “server” or the “players”, not “{source}”").format(
                source=dice_from))
        self.dice_from = dice_from
        self.amendments: list[Amendment] = []
        """Corrections of finished turns (scorekeeper games), oldest first."""
        self.ruleset = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.seats = tuple(p if isinstance(p, Seat) else Seat(p) for p in players)
        if not self.seats:
            raise InvalidActionError(_("a game needs at least one player"))
        self.seed = secrets.randbits(63) if seed is None else seed
        self._rng = random.Random(self.seed)
        self.log: list[Action] = []
        self.edits = 0
        """How far :attr:`version` is ahead of the log's length: an undo or a correction is one
        change more while it shortens the log (or changes its length). Not in the save: a store
        that keeps a game's version (a room's row) sets it again when it loads the game."""
        self.state = GameState([PlayerState(s.name) for s in self.seats])
        self.roll_offs: list[dict[int, int]] = []
        """Roll-off rounds: player index -> the die they rolled (ties roll again)."""
        self.movers: list[int] = []
        """Who made each action of the log (the player whose turn it was)."""
        self.first = 0
        """The player who started: 0 unless the roll-off (or ``first``) chose another."""
        if roll_off and first is not None:
            raise InvalidActionError(_("give a roll-off or a first player, not both"))
        if roll_off and dice_from == "players":
            raise InvalidActionError(
                _("a scorekeeper game has no roll-off of its own: "
                  "roll at the table and name the first player"))
        if first is not None:
            if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(self.seats):
                raise InvalidActionError(
                    _("the first player is a seat number from 0 to {last}").format(last=len(self.seats) - 1))
            self.first = self.state.current = first
        if roll_off and len(self.seats) > 1:
            self._roll_off()

    def _roll_off(self) -> None:
        rolling = list(range(len(self.seats)))
        while len(rolling) > 1:
            dice = {i: self._rng.randint(1, 6) for i in rolling}
            self.roll_offs.append(dice)
            rolling = [i for i in rolling if dice[i] == max(dice.values())]
        self.first = self.state.current = rolling[0]

    def clone(self) -> Game:
        """An independent copy (state, log and dice RNG) sharing the immutable ruleset:
        for trying a move, as a search or a test does."""
        twin = copy.copy(self)
        twin.state = copy.deepcopy(self.state)
        twin.log = list(self.log)
        twin.movers = list(self.movers)
        twin.roll_offs = list(self.roll_offs)
        twin.amendments = list(self.amendments)
        twin._rng = random.Random()
        twin._rng.setstate(self._rng.getstate())
        return twin

    # ---- views --------------------------------------------------------------------
    @property
    def player(self) -> PlayerState:
        return self.state.players[self.state.current]

    @property
    def version(self) -> int:
        """The number of changes the game has been through: every action played, every undo
        and every correction counts one (a view or an event of this version shows the game as
        it is now); a client that saw another version saw a stale game."""
        return len(self.log) + self.edits

    @property
    def is_over(self) -> bool:
        return all(len(p.card) == self.ruleset.turns for p in self.state.players)

    @property
    def rolls_left(self) -> int:
        """Rolls the current player may still make this turn (bank included)."""
        return self.ruleset.rolls_per_turn + self.player.bank - self.state.rolls_used

    def _chosen_first(self) -> int | None:
        """The starter given to the constructor (None when it was seat 0 or a roll-off)."""
        return None if self.roll_offs or self.first == 0 else self.first

    def rolls_split(self) -> tuple[int, int]:
        """Rolls left this turn as (normal rolls, saved rolls from the bank): saved rolls
        are spent only after the turn's own."""
        normal = max(0, self.ruleset.rolls_per_turn - self.state.rolls_used)
        return normal, self.rolls_left - normal

    def last_mover(self) -> int | None:
        """The player who made the last action (None before any)."""
        return self.movers[-1] if self.movers else None

    def score_options(self) -> dict[str, int]:
        """Boxes the current player may fill with the dice on the table, with points."""
        if self.state.dice is None:
            return {}
        return self.ruleset.score_options(self.player.card, self.state.dice, self.state.out)

    def legal_keeps(self) -> list[Dice]:
        """Every distinct keep allowed before the next roll (empty before the first roll).

        Keeping every die is not a keep: it would spend a roll and change nothing.
        """
        if self.state.dice is None or self.rolls_left <= 0:
            return []
        keeps = sub_multisets(self.state.dice)[:-1]
        if self.ruleset.must_keep_one:
            keeps = [k for k in keeps if k]
        return keeps

    def tile_moves(self, category: str) -> tuple[frozenset[int], list[frozenset[int]]]:
        """DOZZY: tiles that go out and the allowed returns if ``category`` is scored now."""
        assert self.state.dice is not None
        return self.ruleset.tile_moves(category, self.state.dice, self.state.out)

    def may_restore(self) -> int:
        """DOZZY: how many tiles the current player may bring back now (0 if none)."""
        if not self.ruleset.uses_board or self.state.rolls_used or self.is_over:
            return 0
        return self.ruleset.restore_count(self.state.out)  # type: ignore[attr-defined]

    @property
    def round_number(self) -> int:
        """The round being played, 1 to the number of boxes (the last one once over)."""
        return min(len(self.player.card) + 1, self.ruleset.turns)

    def legal_actions(self) -> list[Action]:
        """Every action allowed now, in one list: tile returns, rolls and keeps, scores.

        Applying any of them succeeds; an action not in the list is refused. A DOZZY score
        with a choice of tiles to bring back is listed once per choice.
        """
        if self.is_over:
            return []
        actions: list[Action] = []
        n = self.may_restore()
        if n:
            actions += [Restore(t) for t in itertools.combinations(sorted(self.state.out), n)]
        if self.state.dice is None:
            return [*actions, Roll()]
        actions += [Roll(k) for k in self.legal_keeps()]
        for cat in self.score_options():
            _, returns = self.tile_moves(cat)
            if len(returns) > 1:
                actions += [Score(cat, tuple(sorted(r))) for r in returns]
            else:
                actions.append(Score(cat))
        return actions

    def outcome(self) -> Outcome | None:
        """Standings with totals and the winner or winners on a tie; None while playing."""
        if not self.is_over:
            return None
        totals = self.totals()
        order = sorted(range(len(totals)), key=lambda i: -totals[i])
        standings = tuple(
            Standing(i, self.state.players[i].name, totals[i], 1 + sum(t > totals[i] for t in totals))
            for i in order
        )
        return Outcome(Termination.COMPLETED, standings, tuple(self.winners()))

    def totals(self) -> list[int]:
        return [self.total(i) for i in range(len(self.state.players))]

    def total(self, index: int) -> int:
        p = self.state.players[index]
        return sum(p.card.values()) + sum(self.ruleset.bonus_points(p.card).values()) + p.extra

    def winners(self) -> list[int]:
        """Indices of the players with the highest total (ties share the win)."""
        t = self.totals()
        return [i for i, v in enumerate(t) if v == max(t)]

    # ---- actions ------------------------------------------------------------------
    def roll(self, keep: Iterable[int] = ()) -> Dice:
        """Keep some dice and roll the rest; returns the dice now on the table."""
        self.play(Roll(tuple(keep)))
        assert self.state.dice is not None
        return self.state.dice

    def score(self, category: str, returns: Iterable[int] | None = None) -> int:
        """Fill a box; returns the points it got."""
        scorer = self.player
        self.play(Score(category, None if returns is None else tuple(returns)))
        return scorer.card[category]

    def restore(self, tiles: Iterable[int]) -> None:
        self.play(Restore(tuple(tiles)))

    def play(self, action: Action) -> None:
        """Apply a move; a Roll without a result gets fresh dice from the game's RNG.

        :raises InvalidActionError: a scorekeeper game's roll without the dice thrown.
        """
        if isinstance(action, Roll) and action.result is None and self.dice_from == "players":
            raise InvalidActionError(
                _("in a scorekeeper game type the dice you threw, e.g. 1 3 3 5 6"))
        if isinstance(action, Roll) and action.result is None:
            keep = self._check_roll(action)
            n = self.ruleset.dice - len(keep)
            action = Roll(keep, tuple(sorted(self._rng.randint(1, 6) for _ in range(n))),
                          action.player)
        self.apply(action)

    def apply(self, action: Action) -> None:
        """Validate an action against the rules and append it to the log.

        Raises InvalidActionError for malformed input and IllegalActionError for a move
        the rules forbid now; either way the state is unchanged.
        """
        if not isinstance(action, Roll | Score | Restore):
            raise InvalidActionError(_("not an action: {action}").format(action=action))
        if self.is_over:
            raise IllegalActionError(_("the game is over; no more actions"))
        if action.player is not None and action.player != self.state.current:
            raise IllegalActionError(
                _("it is player {current} ({name})'s turn, not player {player}'s").format(
                    name=self.player.name, current=self.state.current, player=action.player)
            )
        mover = self.state.current
        if isinstance(action, Roll):
            self._apply_roll(action)
        elif isinstance(action, Score):
            self._apply_score(action)
        else:
            self._apply_restore(action)
        self.movers.append(mover)
        self.log.append(action)

    def _check_roll(self, action: Roll) -> Dice:
        return checks.keep(self.ruleset, self.state.dice, self.rolls_left, action.keep)

    def _apply_roll(self, action: Roll) -> None:
        keep = self._check_roll(action)
        assert action.result is not None
        result = normalize(action.result)
        if len(result) + len(keep) != self.ruleset.dice:
            raise InvalidActionError(
                ngettext("a roll keeping {kept} die rolls {n}, not {got}",
                         "a roll keeping {kept} dice rolls {n}, not {got}", len(keep)).format(
                    kept=len(keep), n=self.ruleset.dice - len(keep), got=len(result))
            )
        self.state.dice = tuple(sorted(keep + result))
        self.state.rolls_used += 1

    def _apply_score(self, action: Score) -> None:
        st, rs = self.state, self.ruleset
        cat = rs.category(action.category).id
        if st.dice is None:
            raise IllegalActionError(_("roll the dice before scoring"))
        options = self.score_options()
        p = self.player
        if cat not in options:
            checks.refuse_box(rs, p.card, cat, options)
        out_tiles, returns = rs.tile_moves(cat, st.dice, st.out)
        if not rs.uses_board and action.returns:
            raise InvalidActionError(
                _("{rules} has no tile board; leave out the tile returns").format(rules=rs.name))
        back = checks.tile_returns(cat, returns, action.returns) if rs.uses_board else frozenset()
        extra = rs.extra_points(p.card, st.dice)
        # every check passed: commit
        p.card[cat] = options[cat]
        p.extra += extra
        if rs.saved_rolls:
            bank = self.rolls_left
            p.bank = bank if rs.bank_cap is None else min(rs.bank_cap, bank)
        st.out = (st.out | out_tiles) - back
        st.dice = None
        st.rolls_used = 0
        st.current = (st.current + 1) % len(st.players)

    def _apply_restore(self, action: Restore) -> None:
        chosen = checks.restore(self.may_restore(), action.tiles, self.state.out)
        self.state.out = self.state.out - chosen

    # ---- undo, save, load ---------------------------------------------------------
    def undo(self) -> Action:
        """Take back the last action, allowed while it revealed no dice (not a roll); in a
        scorekeeper game a roll too (dice typed wrong)."""
        if not self.log:
            raise IllegalActionError(_("nothing to undo"))
        last = self.log[-1]
        if isinstance(last, Roll) and self.dice_from == "server":
            raise IllegalActionError(_("a roll cannot be undone: its dice have been seen"))
        self._become(self._rebuild(self.log[:-1]))
        return last

    def _rebuild(self, log: Iterable[Action], where: Callable[[int], str] | None = None) -> Game:
        return Game.replay(self.ruleset, self.seats, self.seed, log, roll_off=bool(self.roll_offs),
                           first=self._chosen_first(), dice_from=self.dice_from, where=where)

    def _become(self, rebuilt: Game) -> None:
        """Take the rebuilt game's place (an undo or a correction): one change more."""
        self.edits += len(self.log) + 1 - len(rebuilt.log)
        self.state, self.log, self.movers = rebuilt.state, rebuilt.log, rebuilt.movers
        self._rng = rebuilt._rng

    # ---- scorekeeper games --------------------------------------------------------
    def roll_reaching(self, dice: Iterable[int]) -> Roll:
        """The roll that puts ``dice`` on the table, for dice typed at a real table: it keeps
        as many of the dice now on the table as it can (all but one when nothing changed:
        a re-rolled die came up the same).

        The roll is not applied: :meth:`apply` (or a session) checks it as any other, and
        refuses it when no roll is left or house rule must_keep_one finds nothing kept.

        :raises InvalidActionError: not a game's worth of faces 1..6.
        """
        now = normalize(dice)
        if len(now) != self.ruleset.dice:
            raise InvalidActionError(
                _("{rules} is played with {n} dice; you typed {got}").format(
                    rules=_(self.ruleset.title), n=self.ruleset.dice, got=len(now)))
        before = self.state.dice
        if before is None:
            return Roll((), now)
        remaining = list(now)
        keep: list[int] = []
        for face in before:
            if face in remaining:
                remaining.remove(face)
                keep.append(face)
        if not remaining:
            remaining.append(keep.pop())
        return Roll(tuple(keep), tuple(sorted(remaining)))

    def turns(self) -> list[Turn]:
        """The log cut into turns; the last one may be unfinished."""
        turns, start = [], 0
        for i, action in enumerate(self.log):
            if isinstance(action, Score):
                turns.append(Turn(self.movers[i], start, i + 1))
                start = i + 1
        if start < len(self.log):
            turns.append(Turn(self.movers[start], start, len(self.log)))
        return turns

    @property
    def corrected_after_end(self) -> bool:
        """Whether a turn was corrected once the game was over (its standings changed then)."""
        return any(a.after_end for a in self.amendments)

    def amend(self, turn: int, actions: Sequence[Action]) -> Amendment:
        """Write a finished turn of a scorekeeper game again (the dice were typed wrong, or
        the wrong box was ticked) and replay every later turn on top of it. The correction
        is recorded in :attr:`amendments` and in the save, marked ``after_end`` if the game
        was over (tables notice mistakes at the end: the correction is allowed, and shown).

        :raises IllegalActionError: not a scorekeeper game, no such finished turn, or the new
            turn or a later one breaks the rules (then nothing changes).
        :raises InvalidActionError: the new turn is not a whole turn ending in a score.
        """
        if self.dice_from != "players":
            raise IllegalActionError(_("only a scorekeeper game's turns can be corrected"))
        finished = [t for t in self.turns() if isinstance(self.log[t.stop - 1], Score)]
        if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < len(finished):
            raise IllegalActionError(ngettext(
                "there is {n} finished turn to correct; turns are numbered from 0",
                "there are {n} finished turns to correct; turns are numbered from 0", len(finished))
                .format(n=len(finished)))
        new = tuple(actions)
        if not new or not isinstance(new[-1], Score) or any(isinstance(a, Score) for a in new[:-1]):
            raise InvalidActionError(_("a corrected turn is its rolls and ends with one score"))
        t = finished[turn]

        def where(number: int) -> str:  # the failing action of the new log, in the players' terms
            if t.start < number <= t.start + len(new):
                return _("the corrected round: {error}")
            return _("a later round no longer fits the correction: {error}")

        rebuilt = self._rebuild([*self.log[:t.start], *new, *self.log[t.stop:]], where)
        if rebuilt.movers[t.start] != t.player:
            raise IllegalActionError(_("a corrected turn stays its player's turn"))
        amendment = Amendment(turn, tuple(self.log[t.start:t.stop]), new, after_end=self.is_over)
        self._become(rebuilt)
        self.amendments.append(amendment)
        return amendment

    @classmethod
    def replay(cls, ruleset: Ruleset, players: Sequence[str | Seat], seed: int,
               log: Iterable[Action], *, check_dice: bool = False, roll_off: bool = False,
               first: int | None = None, dice_from: str = "server",
               where: Callable[[int], str] | None = None) -> Game:
        """Rebuild a game from its log; the RNG is advanced past every logged roll.

        With ``check_dice`` every logged roll must be the dice the seed gives, so a log
        cannot choose its own dice. An action the rules refuse is named in the error as
        "action N of the saved game", or by ``where`` (N -> a message with ``{error}``).

        :raises InvalidActionError: an action is malformed, or (``check_dice``) a roll does
            not follow from the seed.
        :raises IllegalActionError: an action breaks the rules at its point in the log.
        """
        game = cls(ruleset, players, seed, roll_off=roll_off, first=first, dice_from=dice_from)
        game.follow(log, check_dice=check_dice, where=where)
        return game

    def follow(self, log: Iterable[Action], *, check_dice: bool = False,
               where: Callable[[int], str] | None = None) -> None:
        """Apply logged actions (each roll with its dice) after those the game has, as
        :meth:`replay` does: the RNG is advanced past every logged roll, and with
        ``check_dice`` each must be the dice the seed gives. Actions are numbered on from the
        game's log in the errors. On an error the game keeps the actions applied before it.

        :raises InvalidActionError: an action is malformed, or (``check_dice``) a roll does
            not follow from the seed.
        :raises IllegalActionError: an action breaks the rules at its point in the log.
        """
        for number, action in enumerate(log, len(self.log) + 1):
            if isinstance(action, Roll) and action.result is not None and self.dice_from == "server":
                drawn = tuple(sorted(self._rng.randint(1, 6) for _ in action.result))
                if check_dice and drawn != tuple(sorted(action.result)):
                    raise InvalidActionError(
                        _("action {number} (a roll) shows {dice}, but this game's seed rolls {drawn}: "
                          "the saved game was changed by hand or damaged").format(
                            number=number, dice=show_dice(sorted(action.result)), drawn=show_dice(drawn))
                    )
            try:
                self.apply(action)
            except YatzyError as e:
                text = where(number) if where is not None else _("action {number} of the saved game: {error}")
                raise type(e)(text.format(number=number, error=e)) from None

    def to_dict(self) -> dict[str, Any]:
        """The save file: ruleset, seats, seed and the action log (a local save keeps the
        seed, so a loaded game rolls on; never send this to a client). See :mod:`yatzy.saves`."""
        return saves.write(self.ruleset, self.seats, self.seed, self.log, roll_off=bool(self.roll_offs),
                           first=self._chosen_first(), dice_from=self.dice_from, amendments=self.amendments)

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, check_dice: bool = True) -> Game:
        """Load a saved game (format 1 or 2): replay its log, checking every roll against
        its seed (``check_dice=False`` only for a game whose dice the players typed in).

        :raises InvalidActionError: not a saved game of a known format, a field missing or
            of the wrong type, or a roll the seed does not give.
        :raises IllegalActionError: an action in the log breaks the rules.
        """
        save = saves.read(data)
        game = cls.replay(save.ruleset, save.seats, save.seed, save.log, check_dice=check_dice,
                          roll_off=save.roll_off, first=save.first, dice_from=save.dice_from)
        game.amendments.extend(save.amendments)
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise InvalidActionError(_("the saved game is not valid JSON: {error}").format(error=e)) from None
        return cls.from_dict(data)
