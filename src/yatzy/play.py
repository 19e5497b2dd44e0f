"""A simple line-based hot-seat game: people and bots around one terminal."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from .bots import make_bot
from .dice import parse
from .errors import YatzyError
from .game import Action, Game, Restore, Roll, Score
from .names import category_name, label

HELP = (
    "Commands: 'r' rolls (keeping nothing), 'k 335' keeps those dice and rolls the rest, "
    "'s two_pairs' (or a number from the list) fills a box, 'u' undoes a score, "
    "'save FILE' saves, 'q' quits.  DOZZY: 's n3 9' brings tile 9 back; 'b 11 12' brings "
    "tiles back before rolling."
)


def scorecard(game: Game, lang: str) -> Table:
    t = Table(title=game.ruleset.title)
    t.add_column(label("category", lang))
    for p in game.state.players:
        t.add_column(p.name, justify="right")
    for c in game.ruleset.categories:
        t.add_row(category_name(c.id, lang),
                  *(str(p.card[c.id]) if c.id in p.card else "·" for p in game.state.players))
    for b in game.ruleset.bonuses:
        t.add_row(label("bonus", lang), *(str(game.ruleset.bonus_points(p.card)[b.id])
                                          for p in game.state.players))
    if any(p.extra for p in game.state.players):
        t.add_row(label("yahtzee_bonus", lang), *(str(p.extra) for p in game.state.players))
    t.add_row(label("total", lang), *(str(v) for v in game.totals()), style="bold")
    return t


def parse_command(game: Game, line: str) -> Action | str:
    """Turn a typed line into an action, or a control word (help, undo, quit, save ...)."""
    words = line.strip().split()
    if not words:
        return "help"
    verb, args = words[0].lower(), words[1:]
    if verb in ("q", "quit", "exit"):
        return "quit"
    if verb in ("u", "undo"):
        return "undo"
    if verb in ("?", "h", "help"):
        return "help"
    if verb == "save":
        return "save " + " ".join(args)
    if verb in ("r", "roll"):
        return Roll()
    if verb in ("k", "keep"):
        return Roll(parse("".join(args)))
    if verb in ("b", "back"):
        return Restore(tuple(int(a) for a in args if a.isdigit()))
    if verb in ("s", "score"):
        if not args:
            return "help"
        options = list(game.score_options())  # card order, as listed on screen
        target = args[0]
        if target.isdigit() and 1 <= int(target) <= len(options):
            target = options[int(target) - 1]
        returns = tuple(int(a) for a in args[1:]) if len(args) > 1 else None
        return Score(target, returns)
    return "help"


def hot_seat(game: Game, seats: list[str], lang: str = "en",
             ask: Callable[[str], str] = input, console: Console | None = None) -> Game:
    """Play until the game ends; seats hold "human" or a bot name per player."""
    con = console or Console()
    bots = {i: make_bot(s, game.ruleset) for i, s in enumerate(seats) if s != "human"}
    con.print(HELP)
    while not game.is_over:
        i = game.state.current
        p = game.player
        if i in bots:
            action = bots[i].act(game)
            game.play(action)
            if isinstance(action, Score):
                pts = game.state.players[i].card[action.category]
                con.print(f"[cyan]{p.name}[/] scores {pts} in "
                          f"{category_name(action.category, lang)}")
            continue
        if game.state.dice is None and not game.may_restore():
            game.play(Roll())
        st = game.state
        con.print(f"\n[bold]{p.name}[/]  dice: [bold yellow]{' '.join(map(str, st.dice or ()))}"
                  f"[/]  rolls left: {game.rolls_left}"
                  + (f"  tiles out: {sorted(st.out)}" if game.ruleset.uses_board else ""))
        if st.dice is not None:
            opts = game.score_options()
            con.print("  ".join(f"{n}.{c}={v}" for n, (c, v) in enumerate(opts.items(), 1)))
        else:
            con.print(f"You may bring {game.may_restore()} tiles back ('b 11 12'), or 'r' to roll.")
        try:
            line = ask("> ")
        except EOFError:
            con.print("\nbye")
            return game
        try:
            cmd = parse_command(game, line)
            if cmd == "quit":
                return game
            if cmd == "help":
                con.print(HELP)
            elif cmd == "undo":
                game.undo()
            elif isinstance(cmd, str) and cmd.startswith("save "):
                path = cmd[5:].strip() or "yatzy-game.json"
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(game.to_json())
                con.print(f"saved to {path}")
            elif not isinstance(cmd, str):
                game.play(cmd)
                if isinstance(cmd, Score):
                    con.print(scorecard(game, lang))
        except YatzyError as e:
            con.print(f"[red]{e}[/]")
    con.print(scorecard(game, lang))
    winners = ", ".join(game.state.players[w].name for w in game.winners())
    con.print(f"[bold green]Winner: {winners}[/]")
    return game
