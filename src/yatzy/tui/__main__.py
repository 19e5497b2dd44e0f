"""``python -m yatzy.tui [--load FILE] [--lang fi]``: the terminal game without the CLI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import YatzyError
from ..game import Game
from ..i18n import check_language
from . import run


def _language(lang: str) -> str:
    """``--lang`` checked by the one language check, as argparse reports a bad value."""
    try:
        return check_language(lang)
    except YatzyError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m yatzy.tui", description="The terminal game of Yatzy.")
    parser.add_argument("--load", type=Path, help="go on with a saved game")
    parser.add_argument("--lang", type=_language, help="language (default: the last one chosen)")
    args = parser.parse_args(argv)
    game = None
    if args.load is not None:
        try:
            game = Game.from_json(args.load.read_text(encoding="utf-8"))
        except (OSError, YatzyError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    run(game, lang=args.lang, save_path=args.load)
    return 0


if __name__ == "__main__":
    sys.exit(main())
