"""The game in words, for every front end: what each event says and how a view's round,
rolls, tiles and winners read, in the player's language, from the gettext catalogs.

The session's events are data; here they become sentences ("Ann keeps 3 3 and rolls again
(roll 2): 3 3 4 5 6."), each naming who moved, so a line read alone (a screen reader, a
log, the web page's announcements) says what happened. A front end chooses which events it
shows; the words are the same in all of them.

Everything here speaks the current language (call it inside ``with language(lang):``),
but :func:`event_words`, which the web server calls with a client's language. The texts
are plain: a front end that prints markup escapes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .actions import Restore, Roll, Score, parse_action
from .analysis import Analysis, Decision, Reason, SeatAnalysis
from .bots import level_name
from .dice import show_dice
from .events import (
    Amended,
    Event,
    GameOver,
    Rolled,
    RollOff,
    Scored,
    TilesMoved,
    TilesRestored,
    TurnPassed,
    Undone,
    event_from_dict,
)
from .i18n import _, language, ngettext, number, percent
from .names import box_label, category_name
from .registry import find_variant
from .session import Preparing
from .views import GameView, and_list

if TYPE_CHECKING:  # types only: the solver and the storage are heavy to import
    from .solver.coach import Option
    from .solver.target import TargetOption
    from .storage import GameSummary

__all__ = ["analysis_note", "board_text", "box_points_text", "coach_chance_text", "coach_head_text",
           "coach_option_text", "coach_reason_text", "coach_target_head_text", "target_working_text",
           "costly_move_text", "decision_move", "decision_text", "dice_status_text", "duration_text",
           "event_text", "event_words", "every_decision_texts", "game_summary_text", "more_moves_text",
           "preparing_text", "reason_text", "rolls_sentence", "rolls_text", "round_text", "round_words",
           "score_options_text", "seat_analysis_texts", "size_text", "table_cost_text",
           "table_progress_text", "tiles_text", "winners_text"]


# ---- a view's state in words --------------------------------------------------------------

def round_text(view: GameView) -> str:
    """ "round 3 of 15", or "final score" once the game is over."""
    if view.over:
        return _("final score")
    return _("round {n} of {rounds}").format(n=view.round, rounds=view.rounds)


def rolls_text(view: GameView) -> str:
    """ "2 rolls left", "no rolls left"; where unused rolls are saved, the saved ones apart:
    "1 roll left + 2 saved rolls"."""
    n, saved = view.rolls_left, view.has_saved_rolls and view.saved_rolls
    if not n and not saved:
        return _("no rolls left")
    normal = ngettext("{n} roll left", "{n} rolls left", n).format(n=n)
    if saved:
        return ngettext("{rolls} + {n} saved roll", "{rolls} + {n} saved rolls", view.saved_rolls).format(
            rolls=normal, n=view.saved_rolls)
    return normal


def box_points_text(box: str, points: int) -> str:
    """A box and what it scores: "14 Chance: 18 points", "1 Ones: 1 point"."""
    return ngettext("{box}: {points} point", "{box}: {points} points", points).format(box=box, points=points)


def board_text(tiles: Sequence[int]) -> str:
    """DOZZY's board: "tiles out: 3 4 5", "tiles out: none"."""
    return _("tiles out: {tiles}").format(tiles=show_dice(tiles))


def tiles_text(tiles: Iterable[int]) -> str:
    """A set of tiles in words: "tile 9", "tiles 4 5", "no tile"."""
    ts = sorted(tiles)
    if not ts:
        return _("no tile")
    return ngettext("tile {tiles}", "tiles {tiles}", len(ts)).format(tiles=show_dice(ts))


def winners_text(view: GameView) -> str:
    """ "Ann wins with 250!", or "A tie: Ann and Bo share the win with 250." (a finished game)."""
    assert view.outcome is not None
    return _winners([view.players[i].name for i in view.outcome.winners], view.outcome.standings[0].total)


def _winners(names: Sequence[str], total: int) -> str:
    if len(names) == 1:
        return _("{name} wins with {total}!").format(name=names[0], total=total)
    tie = _("A tie: {names} share the win with {total}").format(names=and_list(names), total=total)
    return _sentence(tie)


def preparing_text(p: Preparing) -> str:
    """What :meth:`Session.prepare` is doing: "loading the Kids table for the optimal bot"."""
    bots = and_list([level_name(level) for level in p.levels])  # in the player's language
    n, names = len(p.levels), dict(rules=p.ruleset.capitalize(), bots=bots, place=p.place)
    if p.stage == "loading" and p.place is not None:
        text = ngettext("the {rules} table for the {bots} bot waits for its turn: number {place} in the "
                        "server's queue of builds",
                        "the {rules} table for the {bots} bots waits for its turn: number {place} in the "
                        "server's queue of builds", n)
    elif p.stage == "loading":
        text = ngettext("loading the {rules} table for the {bots} bot",
                        "loading the {rules} table for the {bots} bots", n)
    elif p.stage == "building":
        text = ngettext("building the {rules} table for the {bots} bot",
                        "building the {rules} table for the {bots} bots", n)
    else:
        text = ngettext("the {rules} table for the {bots} bot is ready",
                        "the {rules} table for the {bots} bots is ready", n)
    return text.format(**names)


def duration_text(seconds: float) -> str:
    """Roughly how long: "a few seconds", "about 40 seconds", "about 5 minutes", "about 2 hours"."""
    if seconds < 10:
        return _("a few seconds")
    if seconds < 90:
        n = max(10, int(round(seconds / 5) * 5))
        return ngettext("about {n} second", "about {n} seconds", n).format(n=n)
    if seconds < 90 * 60:
        n = int(round(seconds / 60))
        return ngettext("about {n} minute", "about {n} minutes", n).format(n=n)
    n = int(round(seconds / 3600))
    return ngettext("about {n} hour", "about {n} hours", n).format(n=n)


def size_text(size: int) -> str:
    """Bytes as a player reads them: "1.8 GB", "140 MB", "under 1 MB"."""
    if size >= 1e9:
        return _("{n} GB").format(n=number(size / 1e9, 1))
    if size >= 1e6:
        return _("{n} MB").format(n=number(size / 1e6))
    return _("under 1 MB")


def table_progress_text(p: Preparing) -> str:
    """How far a table's build has come, and the time left once measured:
    "120,000 of 1,048,575 cards · about 4 minutes left"."""
    if p.stage != "building" or not p.total:
        return ""
    done = _("{done} of {total} cards").format(done=number(p.done), total=number(p.total))
    if p.seconds_left is None:
        return done + " · " + _("measuring the time left")
    return done + " · " + _("{time} left").format(time=duration_text(p.seconds_left))


def table_cost_text(rules: str, levels: Sequence[str], seconds: float, size: int,
                    instead: str | None) -> str:
    """The new game screen's word before a first game whose bots need a table not stored yet:
    what it costs, once, and what starts at once instead (the greedy bot; ``instead``, a game
    whose table is at hand)."""
    bots = and_list([level_name(level) for level in levels])
    text = ngettext("{rules}: the first game with the {bots} bot builds its table, {time} and {size}, "
                    "once; later games load it.",
                    "{rules}: the first game with the {bots} bots builds their table, {time} and {size}, "
                    "once; later games load it.", len(levels)).format(
        rules=rules, bots=bots, time=duration_text(seconds), size=size_text(size))
    text += " " + _("The greedy bot needs no table and plays at once.")
    if instead:
        text += " " + _("{rules} starts at once.").format(rules=instead)
    return text


# ---- events in words ----------------------------------------------------------------------

def _lead(template: str) -> str:
    """A translated message that begins a sentence, with a capital first letter (a message
    that begins with a name is left as it is: players write their names as they like)."""
    return template[:1].upper() + template[1:]


def _sentence(text: str) -> str:
    """A clause ended as a sentence (the six languages end one alike), so lines read one
    after another keep apart."""
    return text if text.endswith((".", "!", "?")) else text + "."


def event_text(e: Event, view: GameView) -> str:
    """One event as a sentence naming who moved. ``view`` gives the players' and boxes' names
    (any view of the game will do: a later one names them the same)."""
    def name(seat: int) -> str:
        return view.players[seat].name

    def box(number: int) -> str:
        b = view.players[0].boxes[number - 1]
        return box_label(b.number, b.name)

    if isinstance(e, RollOff):
        rolls = "; ".join(", ".join(f"{name(p)} {die}" for p, die in r) for r in e.rounds)
        return _("Roll-off: {rolls}. {name} starts.").format(rolls=rolls, name=name(e.first))
    if isinstance(e, Rolled):
        return _sentence(_rolled(e, name(e.player), guessed=view.dice_from == "players"))
    if isinstance(e, Scored):
        return _sentence(_scored(e, name(e.player), box(e.number)))
    if isinstance(e, TilesMoved):
        moved = []
        if e.tiles_out:
            moved.append(ngettext("tile {tiles} goes out", "tiles {tiles} go out", len(e.tiles_out))
                         .format(tiles=show_dice(e.tiles_out)))
        if e.tiles_back:
            moved.append(ngettext("tile {tiles} comes back", "tiles {tiles} come back", len(e.tiles_back))
                         .format(tiles=show_dice(e.tiles_back)))
        board = board_text(e.board_out)
        return _sentence(_lead(f"{', '.join(moved)}; {board}" if moved else board))
    if isinstance(e, TilesRestored):
        text = ngettext("{name} brings tile {tiles} back", "{name} brings tiles {tiles} back", len(e.tiles))
        return _sentence(f"{text.format(name=name(e.player), tiles=show_dice(e.tiles))}; "
                         f"{board_text(e.board_out)}")
    if isinstance(e, TurnPassed):
        return _sentence(_("{name}'s turn, round {round}").format(name=name(e.player), round=e.round))
    if isinstance(e, Undone):
        if e.number is not None:
            return _sentence(_lead(_("{name}'s score in {box} is taken back")).format(
                name=name(e.player), box=box(e.number)))
        if isinstance(parse_action(e.action), Restore):
            return _sentence(_lead(_("{name}'s tiles go back out")).format(name=name(e.player)))
        # a scorekeeper's entry of the dice thrown, taken back before its box was filled
        return _sentence(_("{name} takes back {action}").format(name=name(e.player), action=e.action))
    if isinstance(e, Amended):
        return _sentence(_amended(e, view))
    if isinstance(e, GameOver):
        return _winners([s.name for s in e.standings if s.player in e.winners], e.standings[0].total)
    raise TypeError(f"no words for a {e.kind} event")  # a new kind of event needs its words here


def _rolled(e: Rolled, name: str, guessed: bool) -> str:
    """A roll; at a scorekeeper table (``guessed``) the dice kept are only the engine's guess
    from the throws typed (:meth:`Game.roll_reaching`: as many dice as could stay), and say so."""
    dice = show_dice(e.dice)
    if e.roll == 1:
        return _("{name} rolls {dice}").format(name=name, dice=dice)
    if not e.kept:
        return _("{name} rolls all the dice again (roll {roll}): {dice}").format(
            name=name, roll=e.roll, dice=dice)
    if guessed:
        text = _("{name} keeps {kept} (guessed from the dice typed) and rolls again (roll {roll}): {dice}")
        return text.format(name=name, kept=show_dice(e.kept), roll=e.roll, dice=dice)
    return _("{name} keeps {kept} and rolls again (roll {roll}): {dice}").format(
        name=name, kept=show_dice(e.kept), roll=e.roll, dice=dice)


def _scored(e: Scored, name: str, box: str) -> str:
    """ "Ann scores 9 in 3 Threes; total 9", with a Yahtzee bonus and saved rolls when there are some."""
    text = ngettext("{name} scores {points} in {box}", "{name} scores {points} in {box}", e.points).format(
        name=name, points=e.points, box=box)
    if e.yahtzee_bonus:
        text += " " + _("and a Yahtzee bonus of {bonus}").format(bonus=e.yahtzee_bonus)
    text += "; " + _("total {total}").format(total=e.total)
    if e.bank:
        text += "; " + _("saved rolls: {n}").format(n=e.bank)
    return text


def _amended(e: Amended, view: GameView) -> str:
    """ "Corrected: Anna, round 3: 1 3 3 5 6 → 14 Chance 18"."""
    actions = [parse_action(a) for a in e.new]
    roll = next(a for a in reversed(actions) if isinstance(a, Roll))
    score = actions[-1]
    assert isinstance(score, Score)
    dice = tuple(sorted(roll.keep + (roll.result or ())))
    words = round_words(view, e.player, e.round, dice, score.category)
    if e.after_end:
        return _("Corrected after the end: {round}").format(round=words)
    return _("Corrected: {round}").format(round=words)


def round_words(view: GameView, player: int, number: int, dice: Sequence[int], box: str) -> str:
    """A finished round of a scorekeeper game: "Anna, round 3: 1 3 3 5 6 → 14 Chance 18" (the
    box's points as the card has them now)."""
    p = view.players[player]
    b = next(b for b in p.boxes if b.id == box)
    return _("{name}, round {n}: {dice} → {box} {points}").format(
        name=p.name, n=number, dice=show_dice(dice), box=box_label(b.number, b.name), points=b.points)


def event_words(event: Mapping[str, Any], view: GameView, lang: str) -> str:
    """An event as the web server sends it (:meth:`Event.to_dict`) in words, in ``lang``: the
    ``text`` of the event in the protocol. ``view`` is the game as the client sees it.

    :raises InvalidActionError: ``lang`` is not one of the six languages.
    :raises KeyError, TypeError: not an event's dict.
    """
    with language(lang):
        return event_text(event_from_dict(event), view)


# ---- a person's turn, the coach and the analysis as sentences (read out by the line game) ----

SHOWN_LOSS = 0.05
"""Expected points below this are no loss: the move is as good as the coach's best."""


def rolls_sentence(view: GameView) -> str:
    """The rolls left as a sentence of its own: "2 rolls left.", "No rolls left."."""
    return _sentence(_lead(rolls_text(view)))


def dice_status_text(view: GameView) -> str:
    """Where a person's turn stands: "Ann's dice: 2 3 3 5 6. 2 rolls left." (and the tiles out
    in DOZZY)."""
    assert view.current is not None and view.dice is not None
    text = _sentence(_("{name}'s dice: {dice}").format(name=view.players[view.current].name,
                                                        dice=show_dice(view.dice)))
    text += " " + rolls_sentence(view)
    if view.board is not None:
        text += " " + _sentence(_lead(board_text(view.board.tiles_out)))
    return text


def score_options_text(view: GameView) -> str:
    """The boxes the dice on the table may fill: "Boxes that score: 1 Ones 2, 7 One Pair 10. For 0:
    6 Sixes, 15 Yatzy." (in card order)."""
    scoring = [f"{box_label(o.number, o.name)} {o.points}" for o in view.score_options if o.points]
    zero = [box_label(o.number, o.name) for o in view.score_options if not o.points]
    parts = []
    if scoring:
        parts.append(_("Boxes that score: {boxes}.").format(boxes=", ".join(scoring)))
    if zero:
        parts.append(_("For 0: {boxes}.").format(boxes=", ".join(zero)))
    return " ".join(parts)


def _move(option: Option, view: GameView) -> str:
    """A ranked move as the start of a sentence: "Keep 5 5 5 and roll the others", "Roll all
    the dice again", "Score 15 in 5 Fives"."""
    action = option.action
    if isinstance(action, Roll):
        if not action.keep:
            return _("Roll all the dice again")
        return _("Keep {dice} and roll the others").format(dice=show_dice(action.keep))
    b = next(b for b in view.players[0].boxes if b.id == action.category)
    return _("Score {points} in {box}").format(points=option.points or 0, box=box_label(b.number, b.name))


def coach_head_text(view: GameView) -> str:
    """What the coach's list ranks: "The coach's best moves for 2 3 3 5 6, 2 rolls left, by the
    points still to come (this turn's included, not the final total):"."""
    assert view.dice is not None
    return _("The coach's best moves for {dice}, {rolls}, by the points still to come (this turn's "
             "included, not the final total):").format(dice=show_dice(view.dice), rolls=rolls_text(view))


def coach_option_text(rank: int, option: Option, view: GameView, reason: Reason | None = None) -> str:
    """One ranked move: "1. Keep 5 5 5 and roll the others: expected 18.2 more points." or, below
    the best, "2. Score 15 in 5 Fives: expected 17.0 more points, 1.2 less than the best."; with
    the ``reason`` the card tells about it (:func:`yatzy.analysis.ranked_reasons`) after a
    semicolon: "...; it puts the bonus out of reach."."""
    move, value = _move(option, view), number(option.value, 1)
    if option.regret < SHOWN_LOSS:
        text = _("{rank}. {move}: expected {value} more points").format(rank=rank, move=move, value=value)
    else:
        text = _("{rank}. {move}: expected {value} more points, {lost} less than the best").format(
            rank=rank, move=move, value=value, lost=number(option.regret, 1))
    if reason is not None:
        text += "; " + coach_reason_text(reason)
    return _sentence(text)


def coach_target_head_text(view: GameView, target: int) -> str:
    """What the coach's list ranks when it plays for a final score: "The coach's best moves for
    2 3 3 5 6, 2 rolls left, by the chance of ending the game with 250 points or more:"."""
    assert view.dice is not None
    return ngettext("The coach's best moves for {dice}, {rolls}, by the chance of ending the game with "
                    "{target} point or more:",
                    "The coach's best moves for {dice}, {rolls}, by the chance of ending the game with "
                    "{target} points or more:", target).format(dice=show_dice(view.dice),
                                                               rolls=rolls_text(view), target=target)


def target_working_text(target: int) -> str:
    """What the coach says while it works out each move's chance of a target (up to ~2 s)."""
    return ngettext("Working out each move's chance of {target} point…",
                    "Working out each move's chance of {target} points…", target).format(target=target)


def coach_chance_text(rank: int, chance: TargetOption, view: GameView) -> str:
    """One move ranked for a target: "1. Keep 5 5 5 and roll the others: a 12.3 % chance,
    expected 18.2 more points."."""
    return _sentence(_("{rank}. {move}: a {chance} chance, expected {value} more points").format(
        rank=rank, move=_move(chance.option, view), chance=percent(chance.chance, 1),
        value=number(chance.option.value, 1)))


def coach_reason_text(reason: Reason) -> str:
    """What the card tells about a ranked move, in a few words: one below the best "it puts the
    bonus out of reach" (the best keeps it), the best at the last turn "the last chance for
    Yatzy"."""
    if reason.kind == "bonus":
        return _("it puts the bonus out of reach")
    return reason_text(reason)


def more_moves_text(n: int) -> str:
    """The moves a short list leaves out: "… and 23 more moves."."""
    return ngettext("… and {n} more move.", "… and {n} more moves.", n).format(n=n)


def costly_move_text(lost: float, best: Option) -> str:
    """The warning before a move that loses more than the player allows against the coach's best."""
    return _("This move loses {points} points against the coach's best: {best}. Play it anyway?").format(
        points=number(lost, 1), best=best.action.describe())


def seat_analysis_texts(seat: SeatAnalysis) -> list[str]:
    """One seat's analysis after the game as lines: what it lost to the coach over the game, then
    its costliest decisions, costliest first."""
    if not seat.costliest:
        return [_("{name} played every decision as the coach would: nothing lost.").format(name=seat.name)]
    lines = [ngettext("{name} lost {points} points to the coach in {n} decision.",
                      "{name} lost {points} points to the coach in {n} decisions.",
                      len(seat.decisions)).format(name=seat.name, points=number(seat.total_lost, 1),
                                                  n=len(seat.decisions)),
             _("The costliest moments:")]
    return lines + [f"{rank}. " + decision_text(d, seat.name, turn=True)
                    for rank, d in enumerate(seat.costliest, 1)]


def every_decision_texts(seat: SeatAnalysis) -> list[str]:
    """One seat's every decision as lines, in the order played, after what it lost over the game."""
    return seat_analysis_texts(seat)[:1] + [f"{n}. " + decision_text(d, seat.name, turn=True)
                                            for n, d in enumerate(seat.decisions, 1)]


def game_summary_text(g: GameSummary) -> str:
    """A game of the history in a line: "Game 12, Yatzy, 2026-12-01 11:58: Ann 250, Greedy bot 230.
    Winner: Ann."."""
    title = _(find_variant(g.ruleset).title)
    when = (g.finished_at or g.updated_at).astimezone().strftime("%Y-%m-%d %H:%M")
    seats = ", ".join(f"{s.name} {s.total}" for s in g.seats)
    text = _("Game {id}, {rules}, {when}: {seats}.").format(id=g.id, rules=title, when=when, seats=seats)
    if g.winners:
        text += " " + ngettext("Winner: {names}.", "Winners: {names}.", len(g.winners)).format(
            names=and_list(g.winners))
    return text

# ---- the analysis in words ------------------------------------------------------------------

def decision_move(move: Roll | Score, points: int | None) -> str:
    """A decision's move as a table of the analysis names it: "Sixes for 18" (the box and
    what it scored), "keep 3 3 5", "roll every die"."""
    if isinstance(move, Score) and points is not None:
        return _("{box} for {points}").format(box=category_name(move.category), points=points)
    return move.describe()


def decision_text(d: Decision, name: str, *, turn: bool = False) -> str:
    """One decision of the analysis in a player's words, naming the box and its points and
    what the choice cost: "Anna scored Sixes for 18; Ones for 3 would have been better: −5.6."
    (the cost in expected points, as the review shows it); "Turn 4: ..." with ``turn``."""
    played = d.played
    if isinstance(played, Score):
        text = _("{name} scored {box} for {points}").format(
            name=name, box=category_name(played.category), points=d.played_points)
    elif played.keep:
        text = _("{name} kept {dice} and rolled again").format(name=name, dice=show_dice(played.keep))
    else:
        text = _("{name} rolled all the dice again").format(name=name)
    lost = number(d.points_lost, 1)
    if round(d.points_lost, 1) <= 0:
        text = _("{decision}: the coach's best move").format(decision=text)
    elif isinstance(d.best, Score):
        text += "; " + _("{box} for {points} would have been better: −{lost}").format(
            box=category_name(d.best.category), points=d.best_points, lost=lost)
    elif d.best.keep:
        text += "; " + _("keeping {dice} would have been better: −{lost}").format(
            dice=show_dice(d.best.keep), lost=lost)
    else:
        text += "; " + _("rolling all the dice again would have been better: −{lost}").format(lost=lost)
    if d.reason is not None and round(d.points_lost, 1) > 0:
        text += "; " + reason_text(d.reason)
    text = _sentence(text)
    return _("Turn {turn}: {decision}").format(turn=d.turn, decision=text) if turn else text


def reason_text(reason: Reason) -> str:
    """Why the coach's best move was better, in a few words: "it keeps the bonus in reach", "the
    last chance for Yatzy", "it keeps Chance open", "25 sure points, not a gamble", "2 rolls were
    still left"."""
    if reason.kind == "bonus":
        return _("it keeps the bonus in reach")
    if reason.kind == "rolls_left":
        assert reason.count is not None
        return ngettext("{n} roll was still left", "{n} rolls were still left", reason.count).format(
            n=reason.count)
    assert reason.box is not None
    box = category_name(reason.box)
    if reason.kind == "open":
        return _("it keeps {box} open").format(box=box)
    if reason.kind == "sure":
        assert reason.count is not None
        return ngettext("{n} sure point, not a gamble", "{n} sure points, not a gamble",
                        reason.count).format(n=reason.count)  # the sentence names the box
    return _("the last chance for {box}").format(box=box)


def analysis_note(a: Analysis) -> str | None:
    """What a reader of the analysis must know about it, or None: in a scorekeeper game the
    dice kept were guessed from the throws typed, and the keeps are judged on that guess."""
    if not a.keeps_guessed:
        return None
    return _("The dice kept before each throw were not typed: they are guessed from the throws "
             "(as many dice as could stay), and the keeps are judged on that guess.")
