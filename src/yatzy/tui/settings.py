"""What the terminal game remembers between runs: the last setup, the theme, the warning, the
dice's tumble, an unfinished game.

Settings live in ``settings.json`` in the user's config folder
(``platformdirs.user_config_dir("yatzy")``, or ``$YATZY_CONFIG_DIR``); the game that was
being played when the program stopped lives in ``autosave.json`` in the user's data folder
(``platformdirs.user_data_dir("yatzy")``, or ``$YATZY_DATA_DIR``, as the storage uses).
A damaged or unreadable file is treated as absent: remembering is a convenience, never a
reason not to start.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from ..errors import YatzyError
from ..game import Game
from ..i18n import check_language
from ..registry import RULESETS
from ..seats import Seat


def config_dir() -> Path:
    env = os.environ.get("YATZY_CONFIG_DIR")
    return Path(env).expanduser() if env else Path(platformdirs.user_config_dir("yatzy"))


def data_dir() -> Path:
    env = os.environ.get("YATZY_DATA_DIR")
    return Path(env).expanduser() if env else Path(platformdirs.user_data_dir("yatzy"))


def settings_path() -> Path:
    return config_dir() / "settings.json"


def autosave_path() -> Path:
    return data_dir() / "autosave.json"


@dataclass
class Setup:
    """A new game as the setup screen fills it in."""

    rules: str = "yatzy"
    options: dict[str, Any] = field(default_factory=dict)
    """Option values as the registry takes them (bool, int, str or None)."""
    lang: str = "en"
    seats: list[Seat] = field(default_factory=lambda: [Seat("Player 1"), Seat("Greedy bot", "bot", "greedy")])
    seed: int | None = None
    roll_off: bool = False
    dice_from: str = "server"
    """"server": the computer rolls; "players": dice thrown at a real table and typed in (a scorekeeper)."""
    first: int = 0
    """A scorekeeper game's starter (the seat's place): the table rolls off, the screen has none."""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["seats"] = [s.to_dict() for s in self.seats]
        return d

    @classmethod
    def from_dict(cls, d: object) -> Setup:
        """A remembered setup; anything missing or damaged falls back to the default."""
        base = cls()
        if not isinstance(d, dict):
            return base
        seats = base.seats
        with contextlib.suppress(YatzyError, TypeError, AttributeError):
            loaded = [Seat.from_dict(s) for s in d.get("seats", [])]
            seats = loaded or seats
        seed = d.get("seed")
        first = d.get("first")
        lang = base.lang
        with contextlib.suppress(YatzyError):
            lang = check_language(d.get("lang"))
        return cls(
            rules=d["rules"] if d.get("rules") in RULESETS else base.rules,
            options=d["options"] if isinstance(d.get("options"), dict) else {},
            lang=lang,
            seats=seats,
            seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
            roll_off=d.get("roll_off") is True,
            dice_from="players" if d.get("dice_from") == "players" else "server",
            first=first if isinstance(first, int) and not isinstance(first, bool)
            and 0 <= first < len(seats) else 0,
        )


@dataclass
class Settings:
    setup: Setup = field(default_factory=Setup)
    low_vision: bool = False
    """Black on yellow and large dice."""
    warn_above: float | None = None
    """Ask before a move that loses more than this many points against the coach's best
    (None: never ask)."""
    roll_animation: bool = True
    """The dice tumble for a moment when rolled (m turns it off and on)."""
    remembered: bool = False
    """Read from the settings file (not the defaults of a first start)."""

    @classmethod
    def load(cls) -> Settings:
        try:
            d = json.loads(settings_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(d, dict):
            return cls()
        warn = d.get("warn_above")
        if isinstance(warn, bool) or not isinstance(warn, int | float) or warn <= 0:
            warn = None
        return cls(Setup.from_dict(d.get("setup")), d.get("low_vision") is True, warn,
                   roll_animation=d.get("roll_animation") is not False, remembered=True)

    def save(self) -> None:
        """Remember the settings; a failure to write is ignored (the game goes on)."""
        with contextlib.suppress(OSError):
            write_atomically(settings_path(), json.dumps(
                {"setup": self.setup.to_dict(), "low_vision": self.low_vision, "warn_above": self.warn_above,
                 "roll_animation": self.roll_animation},
                indent=2, ensure_ascii=False))


WARN_STEPS = (1.0, 3.0, 5.0, 10.0)
"""The points a move may lose before the warning asks (w cycles through them, then off)."""


def next_warning(warn: float | None) -> float | None:
    """The warning's next step: off, then more than 1, 3, 5, 10 points, then off again."""
    steps = [None, *WARN_STEPS]
    return steps[(steps.index(warn) + 1) % len(steps) if warn in steps else 0]


def write_atomically(path: Path, text: str) -> None:
    """Write through a temporary file and a rename, so a file is never half written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def autosave(game: Game) -> None:
    """Keep an unfinished game where the next start finds it; forget a finished one."""
    with contextlib.suppress(OSError):
        if game.is_over:
            autosave_path().unlink(missing_ok=True)
        else:
            write_atomically(autosave_path(), game.to_json())


def load_autosave() -> Game | None:
    """The game interrupted last time, if there is one that still loads."""
    try:
        game = Game.from_json(autosave_path().read_text(encoding="utf-8"))
    except (OSError, YatzyError, ValueError, TypeError, KeyError):
        return None
    return None if game.is_over else game


def forget_autosave() -> None:
    with contextlib.suppress(OSError):
        autosave_path().unlink(missing_ok=True)
