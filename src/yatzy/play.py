"""The line game: people and bots around one terminal, one typed line at a time.

Three parts, kept apart so that other front ends can reuse them:

- parsing: :func:`parse_command` turns a typed line into a move or a :class:`Command`;
- rendering: functions that turn the game into text (scorecard, dice, bot moves);
- the loop: :func:`hot_seat` asks, sends moves to the engine and shows what happened.

Only the engine (:class:`yatzy.game.Game`) changes the game; nothing here computes a
score or applies a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich import box
from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from .bots import LEVELS, Player, make_bot
from .dice import Dice, parse, plural, show_dice
from .errors import IllegalActionError, InvalidActionError, YatzyError
from .game import Action, Game, Restore, Roll, Score
from .names import category_name, label
from .rules import Bonus, Card, Ruleset

DEFAULT_SAVE = "yatzy-game.json"
SHORT_HELP = ("r roll · k 335 keep those dice, roll the rest · s 3 score box 3 · c scorecard · "
              "u undo · save FILE · q quit · h help")
SOLVER_BOTS = tuple(name for name, level in LEVELS.items() if isinstance(level, float))
"""Bots that play from the exact solver's table (built once per ruleset, then cached)."""


def help_text(ruleset: Ruleset) -> str:
    lines = [
        "r            roll (the first roll of a turn throws all the dice)",
        "k 335        keep those dice and roll the others",
        "s 3          score box 3 (a box keeps its number all game; s two_pairs works too)",
    ]
    if ruleset.uses_board:
        lines += [
            "s 3 9        score box 3 and bring tile 9 back (s 3 4 5 brings tiles 4 and 5)",
            "b 11 12      before your first roll, with 4 or more tiles out: bring those back",
        ]
    lines += [
        "c            show the scorecard",
        "u            undo the last score, until the next player rolls",
        f"save FILE    save the game (default {DEFAULT_SAVE}); continue with yatzy play --load FILE",
        "q            quit (asks first and offers to save)",
    ]
    return "\n".join(lines)


# ---- parsing: a typed line -> a move or a command ----------------------------------------

@dataclass(frozen=True)
class Command:
    """A typed line that is not a move."""

    verb: str
    """go (an empty line), help, card, undo, save, quit or unknown."""
    arg: str = ""
    """save: the file name; unknown: the word typed."""


def box_id(ruleset: Ruleset, word: str) -> str:
    """The category a player means by a box number (its place on the card) or an id."""
    ids = ruleset.category_ids
    if word.isdigit():
        n = int(word)
        if 1 <= n <= len(ids):
            return ids[n - 1]
        raise InvalidActionError(f"there is no box {n}: the boxes are numbered 1 to {len(ids)}")
    if word.lower() in ruleset.by_id:
        return word.lower()
    raise InvalidActionError(f"there is no box '{word}': write its number from the list, e.g. s 3")


def tile_numbers(words: list[str]) -> tuple[int, ...]:
    for w in words:
        if not w.isdigit() or not 1 <= int(w) <= 12:
            raise InvalidActionError(f"tiles are numbers 1 to 12, not '{w}'")
    return tuple(int(w) for w in words)


def parse_command(ruleset: Ruleset, line: str) -> Action | Command:
    """Turn a typed line into a move or a command; InvalidActionError if it is malformed."""
    words = line.split()
    if not words:
        return Command("go")
    verb, args = words[0].lower(), words[1:]
    if verb in ("r", "roll"):
        if args:
            raise InvalidActionError("r rolls all the dice; to keep some, write k and the dice, e.g. k 335")
        return Roll()
    if verb in ("k", "keep"):
        if not args:
            raise InvalidActionError("say which dice to keep, e.g. k 335 (r rolls them all)")
        return Roll(parse("".join(args)))
    if verb in ("s", "score"):
        if not args:
            raise InvalidActionError("say which box, e.g. s 3")
        return Score(box_id(ruleset, args[0]), tile_numbers(args[1:]) if args[1:] else None)
    if verb in ("b", "back"):
        if not args:
            raise InvalidActionError("say which tiles come back, e.g. b 11 12")
        return Restore(tile_numbers(args))
    if verb == "save":
        return Command("save", line.split(None, 1)[1].strip() if args else DEFAULT_SAVE)
    simple = {"u": "undo", "undo": "undo", "c": "card", "card": "card", "h": "help", "help": "help",
              "?": "help", "q": "quit", "quit": "quit", "exit": "quit"}
    return Command(simple[verb]) if verb in simple else Command("unknown", words[0])


# ---- rendering: the game as text -----------------------------------------------------------

def box_number(ruleset: Ruleset, category: str) -> int:
    """A box's fixed number: its place on the ruleset's card, from 1."""
    return ruleset.category_ids.index(category) + 1


def box_label(ruleset: Ruleset, category: str, lang: str) -> str:
    """ "3 Threes", "13 One Pair"; DOZZY's "7 (pair sums)" keeps its own number once."""
    n = box_number(ruleset, category)
    name = category_name(category, lang)
    if name.startswith(f"{n} "):
        name = name[len(f"{n} "):]
    return f"{n} {name}"


def tiles_text(tiles: frozenset[int]) -> str:
    return f"tiles out: {show_dice(sorted(tiles))}"


def rolls_text(game: Game) -> str:
    """ "2 rolls left"; with saved rolls the two kinds apart: "rolls left: 1 + 2 saved"."""
    saved = min(game.player.bank, game.rolls_left)
    normal = game.rolls_left - saved
    if game.ruleset.saved_rolls and game.rolls_left:
        return f"rolls left: {normal} + {saved} saved"
    return f"{plural(normal, 'roll', 'rolls')} left" if normal else "no rolls left"


def round_text(game: Game) -> str:
    if game.is_over:
        return "final score"
    return f"round {len(game.player.card) + 1} of {game.ruleset.turns}"


def bonus_status(ruleset: Ruleset, bonus: Bonus, card: Card) -> str:
    """ "earned", "12 more" or "out of reach" (even with every open box of the section at its max)."""
    if bonus.earned(card):
        return "earned"
    best = {**card, **{c: ruleset.by_id[c].max for c in bonus.categories if c not in card}}
    if not bonus.earned(best):
        return "out of reach"
    got = sum(card.get(c, 0) for c in bonus.categories)
    return f"{bonus.threshold - got + int(bonus.strict)} more"


def scorecard(game: Game, lang: str = "en") -> Table:
    """Every box in card order with its number, each section's sum and bonus, and totals."""
    rs, st = game.ruleset, game.state
    title = f"{rs.title} · {round_text(game)}"
    t = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", min_width=len(title),
              caption=tiles_text(st.out) if rs.uses_board else None, caption_justify="left")
    t.add_column(label("category", lang))
    for i, p in enumerate(st.players):
        now = i == st.current and not game.is_over
        t.add_column(escape(p.name), justify="right", header_style="bold reverse" if now else "bold")
    section_end: dict[int, list[Bonus]] = {}
    for b in rs.bonuses:
        section_end.setdefault(max(box_number(rs, c) for c in b.categories), []).append(b)
    for c in rs.categories:
        t.add_row(box_label(rs, c.id, lang),
                  *(str(p.card[c.id]) if c.id in p.card else "[dim]·[/]" for p in st.players))
        for b in section_end.get(box_number(rs, c.id), []):
            numbers = sorted(box_number(rs, x) for x in b.categories)
            sum_label = label("upper", lang) if len(rs.bonuses) == 1 else \
                f"{label('total', lang)} {numbers[0]}–{numbers[-1]}"
            t.add_row(f"[dim]{sum_label}[/]", *(f"[dim]{sum(p.card.get(x, 0) for x in b.categories)}[/]"
                                               for p in st.players))
            t.add_row("[dim]for the bonus[/]",
                      *(f"[dim]{bonus_status(rs, b, p.card)}[/]" for p in st.players))
            t.add_row(label("bonus", lang), *(str(rs.bonus_points(p.card)[b.id]) for p in st.players))
            t.add_section()
    if getattr(rs, "yahtzee_bonus", False) or any(p.extra for p in st.players):
        t.add_row(label("yahtzee_bonus", lang), *(str(p.extra) for p in st.players))
    if rs.saved_rolls:
        t.add_row("saved rolls", *(str(p.bank) for p in st.players))
    t.add_row(label("total", lang), *(str(v) for v in game.totals()), style="bold")
    return t


def options_view(game: Game, lang: str) -> RenderableType:
    """The open boxes, each with its fixed number and what the dice on the table score there."""
    rs = game.ruleset
    cells = [Text.from_markup(f"{escape(box_label(rs, c, lang))} [bold]{pts}[/]" if pts else
                              f"[dim]{escape(box_label(rs, c, lang))} 0[/]")
             for c, pts in game.score_options().items()]
    return Columns(cells, padding=(0, 3))


def standings_text(game: Game) -> str:
    totals = game.totals()
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    ranking = " · ".join(f"{escape(game.state.players[i].name)} {totals[i]}" for i in order)
    return f"Standings ({round_text(game)}): {ranking}"


def winners_text(game: Game) -> str:
    names = [escape(game.state.players[i].name) for i in game.winners()]
    best = max(game.totals())
    if len(names) == 1:
        return f"Winner: {names[0]} with {best}"
    return f"A tie: {', '.join(names[:-1])} and {names[-1]} share the win with {best}"


def tile_change_text(before: frozenset[int], after: frozenset[int]) -> str:
    """ "tile 3 goes out, tiles 4 5 come back" (empty when no tile moved)."""
    parts = []
    gone, back = sorted(after - before), sorted(before - after)
    if gone:
        parts.append(f"{'tile' if len(gone) == 1 else 'tiles'} {show_dice(gone)} "
                     f"{'goes' if len(gone) == 1 else 'go'} out")
    if back:
        parts.append(f"{'tile' if len(back) == 1 else 'tiles'} {show_dice(back)} "
                     f"{'comes' if len(back) == 1 else 'come'} back")
    return ", ".join(parts)


@dataclass(frozen=True)
class Before:
    """What a move may change, taken just before it, to say afterwards what it did."""

    player: int
    dice: Dice | None
    out: frozenset[int]
    extra: int
    bank: int

    @classmethod
    def of(cls, game: Game) -> Before:
        p = game.player
        return cls(game.state.current, game.state.dice, game.state.out, p.extra, p.bank)


def move_text(game: Game, move: Action, before: Before, lang: str) -> str:
    """What a move just did, in words: the dice rolled, the box scored, the tiles moved."""
    rs, st = game.ruleset, game.state
    if isinstance(move, Roll):
        dice = f"[bold yellow]{show_dice(st.dice or ())}[/]"
        if before.dice is None:
            return f"rolls {dice}"
        if not move.keep:
            return f"rolls all the dice again: {dice}"
        return f"keeps {show_dice(move.keep)} and rolls again: {dice}"
    if isinstance(move, Restore):
        back = sorted(move.tiles)
        return f"brings {'tile' if len(back) == 1 else 'tiles'} {show_dice(back)} back; {tiles_text(st.out)}"
    player = st.players[before.player]
    text = f"scores {player.card[move.category]} in {escape(box_label(rs, move.category, lang))}"
    if player.extra > before.extra:
        text += f" and a {label('yahtzee_bonus', lang)} of {player.extra - before.extra}"
    if rs.saved_rolls and player.bank:
        text += f"; saved rolls: {player.bank}"
    if rs.uses_board:
        moved = tile_change_text(before.out, st.out)
        text += f"; {moved + '; ' if moved else ''}{tiles_text(st.out)}"
    return text


def dice_view(game: Game, lang: str) -> list[RenderableType]:
    """A person's turn with dice on the table: dice, rolls left, the open boxes, what to type."""
    st = game.state
    status = f"[bold]{escape(game.player.name)}[/]  dice [bold yellow]{show_dice(st.dice or ())}[/]" \
             f"  ·  {rolls_text(game)}"
    if game.ruleset.uses_board:
        status += f"  ·  {tiles_text(st.out)}"
    hint = "k 335 keeps those dice and rolls the rest, s 3 scores box 3" if game.rolls_left > 0 \
        else "s 3 scores box 3"
    return [status, options_view(game, lang), f"[dim]{hint}[/]"]


# ---- checks in a player's words, before the engine sees a move -----------------------------

def check_move(game: Game, move: Action, lang: str) -> None:
    """Refuse, naming what is allowed, moves the engine would refuse with a terse message."""
    rs, st = game.ruleset, game.state
    if isinstance(move, Score) and st.dice is not None:
        options = game.score_options()
        cat = move.category
        if cat not in options:
            if cat in game.player.card:
                raise IllegalActionError(f"box {box_label(rs, cat, lang)} is filled already; "
                                         "choose an open box from the list")
            allowed = ", ".join(box_label(rs, c, lang) for c in options)
            if rs.order is not None:
                raise IllegalActionError(f"this game fills the boxes in order: the next one is {allowed}")
            raise IllegalActionError(f"box {box_label(rs, cat, lang)} cannot take these dice now "
                                     f"(joker rule); you may score: {allowed}")
        if not rs.uses_board:
            if move.returns:
                raise InvalidActionError(f"this game has no tiles: write just s {box_number(rs, cat)}")
            return
        _, choices = game.tile_moves(cat)
        ways = " or ".join(" ".join(["s", cat, *map(str, sorted(c))]) for c in choices)
        if move.returns is None and len(choices) > 1:
            raise IllegalActionError(f"choose which tiles come back: {ways}")
        if move.returns is not None and frozenset(move.returns) not in choices:
            if choices == [frozenset()]:
                raise IllegalActionError(f"no tiles come back with this score: write {ways}")
            raise IllegalActionError(f"tiles {show_dice(move.returns)} cannot come back with this "
                                     f"score; choose {ways}")


# ---- the solver's table, built in sight -----------------------------------------------------

def prepare_tables(ruleset: Ruleset, seats: list[str], con: Console) -> None:
    """Solve (or load) the table the solver bots play by, with a progress bar while it builds."""
    wanted = sorted({s.strip().lower() for s in seats} & set(SOLVER_BOTS))
    if not wanted or ruleset.uses_board:
        return
    from .solver.solve import solve

    who = f"the {' and '.join(wanted)} {'bot' if len(wanted) == 1 else 'bots'}"
    what = f"the {ruleset.name.capitalize()} table"
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                  TimeElapsedColumn(), console=con, transient=True) as bar:
        task = bar.add_task(f"loading {what} for {who}", total=None)

        def report(done: int, total: int) -> None:
            if bar.tasks[0].total is None:
                con.print(f"building {what} for {who}, once; later games load it")
                bar.update(task, description=f"building {what}")
            bar.update(task, completed=done, total=total)

        solve(ruleset, progress=report)


# ---- the loop --------------------------------------------------------------------------------

class LineGame:
    """The turn loop: whose move it is, what to show, what a typed line does."""

    def __init__(self, game: Game, bots: dict[int, Player], lang: str, con: Console,
                 ask: Callable[[str], str]) -> None:
        self.game, self.bots, self.lang, self.con, self.ask = game, bots, lang, con, ask
        self.let_go = -1
        """Log length at which the person who scored last let the game go on."""
        self.roll_for: int | None = None
        """A person who typed r to go on: their next turn starts with a roll."""
        self.shown = -1
        """Log length when the person to move last saw the state."""

    def name(self, i: int) -> str:
        return escape(self.game.state.players[i].name)

    def error(self, text: str) -> None:
        self.con.print(f"[red]{escape(text)}[/]", highlight=False)

    # -- whose move ----------------------------------------------------------------
    def waiting_scorer(self) -> int | None:
        """A person who just scored, while nobody (a bot, or the end) will roll for them to undo."""
        g = self.game
        if not g.log or not isinstance(g.log[-1], Score) or len(g.log) == self.let_go:
            return None
        who = (g.state.current - 1) % len(g.state.players)
        if who in self.bots or not (g.is_over or g.state.current in self.bots):
            return None
        return who

    def run(self) -> None:
        self.con.print(f"[dim]{SHORT_HELP}[/]", highlight=False)
        while True:
            g = self.game
            scorer = self.waiting_scorer()
            if scorer is None:
                if g.is_over:
                    self.con.print(scorecard(g, self.lang))
                    self.con.print(f"[bold green]{winners_text(g)}[/]", highlight=False)
                    return
                if g.state.current in self.bots:
                    self.bot_turn()
                    continue
                if self.roll_for == g.state.current and g.state.dice is None and not g.may_restore():
                    self.turn_head()
                    self.human_move(Roll())
                self.roll_for = None
            if not self.ask_and_do(scorer):
                return

    def bot_turn(self) -> None:
        g, me = self.game, self.game.state.current
        self.con.print(f"\n[bold cyan]{self.name(me)}[/] · {round_text(g)}", highlight=False)
        while True:
            before = Before.of(g)
            move = self.bots[me].act(g)
            g.play(move)
            self.con.print(f"  {move_text(g, g.log[-1], before, self.lang)}", highlight=False)
            if isinstance(move, Score):
                break
        # one card after a run of bot turns, before a person plays (the final card ends the game)
        if not g.is_over and (g.state.current not in self.bots or len(self.bots) == len(g.state.players)):
            self.con.print(scorecard(g, self.lang))

    # -- a person's prompt -------------------------------------------------------------
    def show(self, scorer: int | None) -> None:
        g, con = self.game, self.con
        if scorer is not None:
            if g.is_over:
                con.print("That was the last box. Enter: the final score · u: undo your score")
            else:
                bot = self.name(g.state.current)
                roll = " · r: it plays, then you roll" if self.next_person() == scorer else ""
                con.print(f"Enter: {bot} plays{roll} · u: undo your score", highlight=False)
        elif g.state.dice is None:
            self.turn_head()
            n = g.may_restore()
            if n:
                con.print(f"{tiles_text(g.state.out)}: you may bring {plural(n, 'tile', 'tiles')} back "
                          f"first, e.g. b {show_dice(sorted(g.state.out)[-n:])}", highlight=False)
            undo = self.undo_hint()
            con.print(f"r to roll{', u to undo ' + undo if undo else ''}", highlight=False)
        else:
            for part in dice_view(g, self.lang):
                con.print(part, highlight=False)

    def turn_head(self) -> None:
        g = self.game
        head = f"\n[bold]{self.name(g.state.current)}[/] · {round_text(g)}"
        if g.ruleset.saved_rolls:
            head += f" · {rolls_text(g)}"
        self.con.print(head, highlight=False)

    def next_person(self) -> int | None:
        """The next seat, after the current one, that a person plays."""
        n = len(self.game.state.players)
        for step in range(n):
            i = (self.game.state.current + step) % n
            if i not in self.bots:
                return i
        return None

    def undo_hint(self) -> str:
        """What u would take back now ("Ann's score"), or "" when nothing can be undone."""
        g = self.game
        if not g.log:
            return ""
        last = g.log[-1]
        if isinstance(last, Restore):
            return "the tiles brought back"
        if isinstance(last, Score):
            who = (g.state.current - 1) % len(g.state.players)
            if who not in self.bots:
                return "your score" if who == g.state.current else f"{self.name(who)}'s score"
        return ""

    def ask_and_do(self, scorer: int | None) -> bool:
        """Show what changed, read a line and act on it; False when the game should stop."""
        if self.shown != len(self.game.log):
            self.show(scorer)
            self.shown = len(self.game.log)
        try:
            line = self.ask("> ")
        except EOFError:
            self.con.print(f"\n{standings_text(self.game)}", highlight=False)
            return False
        except KeyboardInterrupt:  # Ctrl-C: as q, so a game is not lost to a stray key
            self.con.print()
            return not self.quit()
        try:
            cmd = parse_command(self.game.ruleset, line)
            if isinstance(cmd, Command):
                return self.command(cmd, scorer)
            if scorer is not None:
                if isinstance(cmd, Roll) and not cmd.keep:
                    self.let_go, self.roll_for = len(self.game.log), scorer
                    return True
                raise IllegalActionError(
                    "the game is over: press Enter for the final score" if self.game.is_over else
                    f"{self.game.player.name} plays next: press Enter to go on")
            self.human_move(cmd)
        except YatzyError as e:
            self.error(str(e))
        return True

    def human_move(self, move: Action) -> None:
        g = self.game
        check_move(g, move, self.lang)
        before = Before.of(g)
        g.play(move)
        if isinstance(move, Score):
            self.con.print(f"{self.name(before.player)} {move_text(g, g.log[-1], before, self.lang)}",
                           highlight=False)
            if not g.is_over and g.state.current not in self.bots:
                self.con.print(scorecard(g, self.lang))  # the next person sees the board (bots show it)
        elif isinstance(move, Restore):
            self.con.print(f"{self.name(before.player)} {move_text(g, move, before, self.lang)}",
                           highlight=False)

    def command(self, cmd: Command, scorer: int | None) -> bool:
        con = self.con
        if cmd.verb == "go":
            if scorer is not None:
                self.let_go = len(self.game.log)
            else:
                self.shown = -1
        elif cmd.verb == "help":
            con.print(help_text(self.game.ruleset), highlight=False)
            self.shown = -1
        elif cmd.verb == "card":
            con.print(scorecard(self.game, self.lang))
            self.shown = -1
        elif cmd.verb == "undo":
            self.undo()
        elif cmd.verb == "save":
            self.save(cmd.arg)
        elif cmd.verb == "quit":
            return not self.quit()
        else:
            self.error(f"unknown command '{cmd.arg}'")
            con.print(f"[dim]{SHORT_HELP}[/]", highlight=False)
        return True

    def undo(self) -> None:
        g = self.game
        what = self.undo_hint()
        if not what:
            if not g.log:
                raise IllegalActionError("nothing to undo yet")
            if isinstance(g.log[-1], Roll):
                raise IllegalActionError("a roll cannot be undone: its dice have been seen")
            who = g.state.players[(g.state.current - 1) % len(g.state.players)].name
            raise IllegalActionError(f"{who} moved last: only a person's own score can be undone")
        last = g.log[-1]
        g.undo()
        if isinstance(last, Score):
            where = escape(box_label(g.ruleset, last.category, self.lang))
            self.con.print(f"{what[0].upper() + what[1:]} in {where} is taken back: "
                           f"{self.name(g.state.current)}, choose again.", highlight=False)
        else:
            self.con.print(f"Tiles back out, as before; {tiles_text(g.state.out)}", highlight=False)
        self.shown = -1

    def save(self, path: str, then: str = "; the game goes on") -> bool:
        try:
            Path(path).expanduser().write_text(self.game.to_json(), encoding="utf-8")
        except OSError as e:
            self.error(f"could not save to {path}: {e.strerror or e}{then}")
            return False
        self.con.print(f"saved to {escape(path)}; continue it with: yatzy play --load {escape(path)}",
                       highlight=False)
        return True

    def quit(self) -> bool:
        """Confirm, offer to save, show the standings; False if the player goes on playing."""
        try:
            if self.ask("Quit the game? y to quit, Enter to go on > ").strip().lower() not in ("y", "yes"):
                self.con.print("The game goes on.")
                return False
            while True:
                path = self.ask(f"Save it first? A file name, Enter for {DEFAULT_SAVE}, n not to save > ")
                path = path.strip() or DEFAULT_SAVE
                if path.lower() in ("n", "no") or self.save(path, then=""):
                    break
        except (EOFError, KeyboardInterrupt):
            self.con.print()
        self.con.print(standings_text(self.game), highlight=False)
        return True


def hot_seat(game: Game, seats: list[str], lang: str = "en",
             ask: Callable[[str], str] = input, console: Console | None = None) -> Game:
    """Play until the game ends or the players quit; seats hold "human" or a bot name per player."""
    con = console or Console()
    prepare_tables(game.ruleset, seats, con)
    bots = {i: make_bot(s, game.ruleset) for i, s in enumerate(seats) if s != "human"}
    LineGame(game, bots, lang, con, ask).run()
    return game
