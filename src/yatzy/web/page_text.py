"""Every word of the web page, declared once for the gettext catalogs and exported for the page.

The page (``static/app.js``) looks its words up by key (``t("seat_n", {n: 2})``) in
``static/i18n/<lang>.json``. A word that counts (``NP_``, "1 game shown", "2 games shown") is
exported as its forms by the plural category the page's ``Intl.PluralRules`` names for a count
(``{"one": ..., "other": ...}``; Russian has "few" and "many" too), and ``t`` picks the form for
its ``n``. Those files are not written by hand: each is exported from the
compiled catalogs by ``scripts/translations`` (``python -m yatzy.web.page_text``), so the page
and the rest of the program share one catalog, and ``tests/test_i18n.py`` fails while an
exported file is stale. A word whose English reads otherwise elsewhere in the program has
the context "page".
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from babel import Locale

from ..i18n import LANGUAGES, N_, NC_, _, language, ngettext, pgettext

__all__ = ["FOLDER", "PAGE_TEXT", "NP_", "Plural", "export", "page_json", "page_words", "plural_forms"]


@dataclass(frozen=True)
class Plural:
    """A page word that counts ``{n}``: its English singular and plural (the catalog has each
    language's forms)."""

    singular: str
    plural: str


def NP_(singular: str, plural: str) -> Plural:  # noqa: N802 - a marker, like N_
    """Mark a counting page word for the catalog (``scripts/translations`` extracts it as
    ngettext's two forms)."""
    return Plural(singular, plural)


CATEGORIES = ("zero", "one", "two", "few", "many", "other")
"""CLDR's plural categories, in the order a word's forms are exported."""

FOLDER = Path(__file__).parent / "static" / "i18n"
"""Where the page loads its words from: ``<lang>.json``."""

PAGE_TEXT: dict[str, str | tuple[str, str] | Plural] = {
    "skip": N_("Skip to the game"),
    "language": N_("Language"),
    "high_contrast": N_("High contrast"),
    "settings": N_("Settings"),
    "feel_motion": N_("Animate the dice"),
    "feel_sounds": N_("Sounds"),
    "feel_speech": N_("Read the moves aloud"),
    "cheer_yatzy": N_("Yatzy!"),
    "cheer_best": N_("{name}: a new personal best, {total}!"),
    "lobby": N_("Lobby"),
    "new_game": NC_("page", "New game"),
    "ruleset": N_("Ruleset"),
    "house_rules": N_("House rules"),
    "players": N_("Players"),
    "seat_n": N_("Seat {n}"),
    "who": N_("Who"),
    "person": N_("Person"),
    "bot": N_("Bot"),
    "name": N_("Name"),
    "level": N_("Level"),
    "player_n": N_("Player {n}"),
    "bot_name_placeholder": N_("(the level's name)"),
    "remove": N_("Remove"),
    "remove_seat": N_("Remove seat {n}"),
    "add_seat": N_("Add a player"),
    "no_limit": N_("no limit"),
    "hot_seat": N_("Hot seat: everyone plays in this browser"),
    "allow_spectators": N_("Spectators may watch"),
    "roll_off": N_("Roll off for the first turn"),
    "bot_pace": N_("Bot speed"),
    "pace_fast": N_("Fast"),
    "pace_normal": N_("Normal"),
    "pace_slow": N_("Slow"),
    "create_room": N_("Create the room"),
    "quick_game": N_("Quick game"),
    "quick_game_note": N_("Yatzy, you against the beginner bot: no form to fill in."),
    "quick_game_start": N_("Play against a bot"),
    "join_room": N_("Join a room"),
    "room_code": N_("Room code"),
    "open_room": N_("Open the room"),
    "your_rooms": N_("Your rooms"),
    "room_n": N_("Room {code}"),
    "back_to_lobby": N_("Back to the lobby"),
    "room_over": N_("This game is over; you may still look at it."),
    "choose_seat": N_("Choose a free seat, or watch."),
    "take_seat": N_("Play as {name}"),
    "hot_seat_join": N_("This room is played on one device, which plays every seat: you may watch."),
    "taken": N_("taken"),
    "kept_seat": N_("kept for its player from the last game"),
    "watch": N_("Watch the game"),
    "dice": NC_("page", "Dice"),
    "die_label": N_("Die {n}: {face}"),
    "die_empty": N_("Die {n}: not rolled"),
    "held": N_("Held"),
    "die_held": N_("Die {n} ({face}) held."),
    "die_released": N_("Die {n} ({face}) released."),
    "held_list": N_("Holding {dice}."),
    "none_held": N_("No dice held."),
    "roll": N_("Roll"),
    "roll_left": N_("Roll ({n} left)"),
    "roll_left_saved": N_("Roll ({n} left, {saved} saved)"),
    "keys_hint": N_("Keys: 1–6 hold a die, R rolls, ↑ ↓ move between boxes, Enter scores."),
    "choose_return": N_("{box}: which tiles come back?"),
    "return_tiles": N_("Bring back {tiles}"),
    "return_none": N_("Bring none back"),
    "bring_back": N_("Bring tiles back before rolling"),
    "cancel": N_("Cancel"),
    "tiles": N_("Tiles"),
    "tile_in": N_("in play"),
    "tile_out": N_("out"),
    "scorecard": N_("Scorecard"),
    "box": NC_("page", "Box"),
    "total": N_("Total"),
    "open": N_("open"),
    "playing_now": N_("playing now"),
    "score_in": N_("Score {points} in {box}"),
    "yahtzee_bonus": NC_("page", "Yahtzee bonus"),
    "saved_rolls": N_("Saved rolls"),
    "round": N_("Round {round} of {rounds}"),
    "watching": N_("You are watching"),
    "your_turn": N_("Your turn"),
    "turn_of": NC_("page", "{name}'s turn"),
    "turn_of_here": N_("{name}'s turn (in this browser)"),
    "reconnecting": N_("Connection lost; reconnecting…"),
    "offline_wait": N_("Moves wait until the connection is back."),
    "reconnected": N_("Connected again."),
    "caught_up": N_("Caught up."),
    "game_over": N_("Game over"),
    "standings": N_("Standings"),
    "rematch": N_("Rematch"),
    "rematch_follow": N_("Play the rematch"),
    "rematch_offered": N_("A rematch has begun: the same players and rules."),
    "rematch_watch": N_("Watch the rematch"),
    "standing": N_("{rank}. {name} {total}"),
    "winner": N_("Winner: {names}"),
    "winners": N_("Winners: {names}"),
    "moves": N_("Moves"),
    "no_moves": N_("No moves yet."),
    "invite": N_("Invite players"),
    "invite_link": N_("Invite link"),
    "copy_link": N_("Copy the link"),
    "copied": N_("Link copied."),
    "qr_alt": N_("QR code of the invite link"),
    "qr_caption": N_("Scan with a phone at the table to join."),
    "connected": N_("here"),
    "away": N_("away"),
    "bot_level": N_("bot, {level}"),
    "stand_in": N_("away, a bot ({level}) plays"),
    "you": N_("you"),
    "hand_to_bot": N_("Let a bot play"),
    "free_seat": N_("Free the seat"),
    "seat_to_bot": N_("Give to a bot"),
    "seat_freed": N_("{name}'s seat is free for someone else to take."),
    "seat_to_bot_done": N_("A bot plays {name}'s seat now."),
    "spectators": N_("Spectators: {n}"),
    "fair_dice": N_("Fair dice"),
    "fair_explain": N_("The server chose the dice seed before the game and shows its fingerprint. At the "
                       "end it reveals the seed, and this page checks every roll against it."),
    "commitment": N_("Fingerprint (SHA-256)"),
    "fair_wait": N_("The seed is revealed when the game is over."),
    "seed": NC_("page", "Seed"),
    "salt": N_("Salt"),
    "fair_ok": NP_("Checked: the seed matches the fingerprint and the {n} roll follows from it.",
                   "Checked: the seed matches the fingerprint and all {n} rolls follow from it."),
    "fair_failed": N_("The dice check failed."),
    "fair_bad_roll": N_("Check failed: action {number} shows {shown}, but the seed rolls {drawn}."),
    "fair_bad_commitment": N_("Check failed: the seed and salt do not match the fingerprint."),
    "fair_bad_seed": N_("Check failed: the game was played with another seed."),
    "fair_bad_roll_off": N_("Check failed: round {round} of the roll-off is not what the seed rolls."),
    "fair_bad_format": N_("Check failed: the revealed game could not be read."),
    "ask_coach": N_("Ask the coach"),
    "coach": N_("Coach"),
    "coach_asking": N_("Asking the coach…"),
    "coach_preparing": N_("The coach is preparing its tables ({percent}%)…"),
    "coach_regret": N_("loses {points}"),
    "coach_target": N_("Play for a final score"),
    "coach_target_help": N_("Optional: the coach ranks the moves by their chance of it "
                            "(near the game's end)"),
    "coach_chance": N_("{percent} chance of {target}"),
    "analyse": N_("Analyse the game"),
    "analysis": NC_("page", "Analysis"),
    "analysis_preparing": N_("The analysis is being prepared ({percent}%)…"),
    "analysis_ready": N_("The analysis is ready."),
    "points_lost": N_("{name} lost {points} points against perfect play."),
    "costly": N_("Turn {turn}: played {played}; best was {best} (−{points})."),
    "nav": N_("Screens"),
    "nav_play": N_("Play"),
    "nav_games": NC_("page", "Games played"),
    "nav_stats": N_("Statistics"),
    "dice_from": NC_("page", "Dice"),
    "dice_server": N_("Rolled by the server"),
    "dice_players": N_("Thrown at the table"),
    "dice_server_note": N_("The server rolls provably fair dice."),
    "dice_players_note": N_("A scorekeeper room: people only. Each player throws real dice and types "
                            "them in; there is no fairness fingerprint."),
    "coach_on": N_("The coach may be asked during play"),
    "undo": N_("Undo"),
    "undo_action": N_("Undo the last entry ({action})"),
    "fix_round": N_("Fix an earlier round"),
    "fix_round_explain": N_("Choose the round, type the dice as they were when the box was filled, and "
                            "choose the box. The later rounds are replayed on top."),
    "which_round": N_("Round"),
    "round_entry": N_("{name}, round {number}: {dice} → {box}"),
    "save_fix": N_("Save the fix"),
    "round_fixed": N_("The round was fixed."),
    "no_rounds": N_("No finished round of yours to fix yet."),
    "dice_thrown": N_("Dice thrown"),
    "dice_thrown_help": N_("Type the dice on the table as digits 1–6, for example 13356."),
    "enter_dice": N_("Enter the dice"),
    "dice_digits": N_("Type the dice as digits 1 to 6, for example 13356."),
    "tiles_back": N_("Tiles that came back"),
    "tiles_back_help": N_("DOZZY: only when the box leaves a choice, e.g. 10 or 8 10; leave empty "
                          "otherwise."),
    "tiles_numbers": N_("Type the tiles as numbers 1 to 12, for example 8 10."),
    "keeper_hint": N_("Keys: R goes to the dice field, Enter sends it; pick the box in the scorecard."),
    "keeper_badge": N_("Scorekeeper room: dice thrown at the table"),
    "corrected_after_end": N_("Corrected after the end of the game"),
    "keeper_dice": N_("Dice from the table"),
    "keeper_explain": N_("In this scorekeeper room the players throw real dice and type them in. The "
                         "server rolls nothing, so there is no fairness fingerprint to check."),
    "replay_this": N_("Replay this game"),
    "stats_of": N_("Statistics: {ruleset}"),
    "all_rulesets": N_("All rulesets"),
    "more_games": N_("Show more games"),
    "loading": N_("Loading…"),
    "games_shown": NP_("{n} game shown.", "{n} games shown."),
    "no_games": N_("No finished games yet."),
    "games_own": N_("This server keeps its history private: you see the games of the rooms this "
                    "browser took part in."),
    "result": N_("{rank}. {name} {total}"),
    "won": N_("won"),
    "lost_short": N_("lost {points} to the coach"),
    "replay_game": N_("Replay"),
    "replay_game_n": N_("Replay game {n} ({title})"),
    "replay_record": N_("Replay {name}'s {total}"),
    "replay_n": N_("Game {n}"),
    "replay_controls": N_("Step through the game"),
    "replay_first": N_("◀◀ Start"),
    "replay_prev": N_("◀ Back"),
    "replay_next": N_("Forward ▶"),
    "replay_last": N_("End ▶▶"),
    "replay_keys": N_("Keys: ← and → step back and forward, Home and End jump to the start and the end."),
    "replay_at": N_("At this step"),
    "replay_position": N_("Step {step} of {steps} · round {round} of {rounds}"),
    "replay_start": N_("Before the first move."),
    "replay_rolled": N_("{name} rolled {dice}."),
    "replay_scored": N_("{name} scored {points} in {box}."),
    "replay_moved": N_("{name} played {action}."),
    "replay_next_action": N_("Next move: {action}"),
    "back_to_games": N_("Back to the games played"),
    "distribution": N_("Final totals"),
    "distribution_explain": NP_("{n} final total, counted in bins of {bin} points.",
                                "{n} final totals, counted in bins of {bin} points."),
    "chart_title": N_("Final totals in {ruleset}"),
    "chart_desc": NP_("A bar chart of {n} final total. Totals: games — {bins}.",
                      "A bar chart of {n} final totals. Totals: games — {bins}."),
    "chart_table": N_("The chart's numbers as a table"),
    "totals": N_("Totals"),
    "games": NC_("page", "Games"),
    "no_stats": N_("No finished games of this ruleset yet."),
    "stats_server_note": N_("Games with the server's dice. Games whose dice were typed at a table are "
                            "counted apart."),
    "stats_typed_note": N_("Dice typed at a real table: counted apart, never ranked with the server's dice."),
    "stats_show_typed": N_("Games with typed dice ({n})"),
    "stats_show_server": N_("Games with the server's dice ({n})"),
    "player_stats": N_("Players"),
    "wins": N_("Wins"),
    "mean": N_("Mean"),
    "best": N_("Best"),
    "bonus_rate": NC_("page", "Bonus"),
    "yatzy_rate": N_("Yatzy"),
    "mean_lost": N_("Lost to the coach"),
    "records": N_("Records"),
    "record": N_("{name}: {total}"),
}
"""Each key the page looks up, and its English (with its context where it has one)."""


def page_words(lang: str) -> dict[str, str | dict[str, str]]:
    """Every key of the page with its words in ``lang``, from the compiled catalog (a counting
    word: its forms by plural category, :func:`plural_forms`)."""
    with language(lang):
        return {key: plural_forms(text, lang) if isinstance(text, Plural) else
                pgettext(*text) if isinstance(text, tuple) else _(text)
                for key, text in PAGE_TEXT.items()}


def plural_forms(word: Plural, lang: str) -> dict[str, str]:
    """A counting word's forms in ``lang`` (the current language) by CLDR plural category, as
    the page's ``Intl.PluralRules(lang).select(n)`` names them: each category gets the
    catalog's form for a count of it (0 to 199 holds one of each a language's whole numbers
    have); "other" is always there, the form of 5 where no whole number is "other" (Russian's
    is for fractions)."""
    rule = Locale.parse(lang).plural_form
    found: dict[str, str] = {}
    for n in range(200):
        found.setdefault(rule(n), ngettext(word.singular, word.plural, n))
    found.setdefault("other", found[rule(5)])
    return {c: found[c] for c in CATEGORIES if c in found}


def page_json(lang: str) -> str:
    """The page's file for ``lang``, as it is exported: keys in the order above."""
    return json.dumps(page_words(lang), indent=2, ensure_ascii=False) + "\n"


def export(folder: str | Path = FOLDER) -> list[Path]:
    """Write ``<lang>.json`` for every language into ``folder``; returns the files written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in LANGUAGES:
        path = out / f"{lang}.json"
        path.write_text(page_json(lang), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # python -m yatzy.web.page_text [FOLDER]
    for written_path in export(*sys.argv[1:2]):
        print(written_path)
