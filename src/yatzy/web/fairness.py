"""Provably fair dice: a room commits to its dice seed at the start and reveals it at the end.

The seed comes from :mod:`secrets` (63 bits, as :class:`~yatzy.game.Game` draws it) and the
dice are the engine's ``random.Random(seed)`` draws. The room shows

    commitment = sha256(salt + ":" + str(seed)).hexdigest()

from the start, with a random 128-bit ``salt`` kept secret too (so the seed cannot be found
by trying every one against the hash). At the end the room reveals seed and salt and the
roll-off's dice (:func:`roll_off_rounds`: the save keeps only that there was one);
:func:`verify` checks the hash and replays the game, checking that every roll follows from
the seed (``Game.replay(..., check_dice=True)``), the roll-off's too.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from collections.abc import Sequence
from typing import Any

from ..dice import show_dice
from ..errors import InvalidActionError, YatzyError
from ..game import Game
from ..i18n import _

SCHEME = "sha256(salt:seed)"


def new_salt() -> str:
    """A fresh random salt: 32 hex digits."""
    return secrets.token_hex(16)


def commitment(seed: int, salt: str) -> str:
    """The public commitment to ``seed``: sha256 of the UTF-8 text ``salt:seed``, as hex."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def roll_off_rounds(game: Game) -> list[list[tuple[int, int]]]:
    """The roll-off as the seed drew it, before any roll: each round's (seat, die) pairs in
    seat order, the seats tied for the highest rolling again; empty without a roll-off."""
    return [sorted(r.items()) for r in game.roll_offs]


def _round_text(game: Game, pairs: Sequence[tuple[int, int]]) -> str:
    """One roll-off round as "Ann 5, Bo 3" (a seat the game does not have by its number)."""
    names = [s.name for s in game.seats]
    return ", ".join(f"{names[s] if 0 <= s < len(names) else s} {d}" for s, d in pairs) or show_dice(())


def _check_roll_off(game: Game, shown: object) -> None:
    """The revealed roll-off must be the one the seed drew (round by round)."""
    try:
        rounds = [[(int(s), int(d)) for s, d in r] for r in shown]  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise InvalidActionError(
            _("the revealed roll-off is a list of rounds, each a list of [seat, die] pairs")) from None
    nothing: list[tuple[int, int]] = []  # the round a shorter list lacks
    pairs = itertools.zip_longest(rounds, roll_off_rounds(game), fillvalue=nothing)
    for n, (got, drawn) in enumerate(pairs, 1):
        if got != drawn:
            raise InvalidActionError(
                _("round {n} of the roll-off shows {shown}, but this game's seed rolls {drawn}: the "
                  "revealed roll-off was changed").format(
                    n=n, shown=_round_text(game, got), drawn=_round_text(game, drawn)))


def verify(data: dict[str, Any]) -> Game:
    """Check a revealed game: the JSON of ``GET /api/rooms/{code}/verify`` or a ``reveal``
    message (``commitment``, ``salt``, ``seed``, ``game``: the save with its log).

    Returns the replayed game when the commitment matches the seed, the save's seed is that
    seed, every roll of the log is the dice the seed gives, and the roll-off's dice
    (``roll_off_rounds``, if given: a reveal of before they were added has none) are too.

    :raises InvalidActionError: a field is missing, the hash does not match, or a roll (or a
        roll-off round) does not follow from the seed (the message names the first one).
    :raises IllegalActionError: an action of the log breaks the rules.
    """
    if not isinstance(data, dict):
        raise InvalidActionError(_("a revealed game is a JSON object with commitment, salt, seed and game"))
    missing = [k for k in ("commitment", "salt", "seed", "game") if k not in data]
    if missing:
        raise InvalidActionError(_("the revealed game has no “{field}” field").format(field=missing[0]))
    seed, salt, promised, save = data["seed"], data["salt"], data["commitment"], data["game"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not isinstance(salt, str) \
            or not isinstance(promised, str) or not isinstance(save, dict):
        raise InvalidActionError(_("the revealed game's seed is a whole number, salt and commitment are "
                                   "text and game is an object"))
    if not hmac.compare_digest(commitment(seed, salt), promised.lower()):
        raise InvalidActionError(
            _("the commitment {commitment} is not the hash of this seed and salt: the seed was changed")
            .format(commitment=promised))
    if save.get("seed") != seed:
        raise InvalidActionError(_("the game was played with another seed than the one revealed"))
    try:
        game = Game.from_dict(save, check_dice=True)
    except YatzyError as e:
        raise type(e)(_("the dice do not follow from the seed: {error}").format(error=e)) from None
    if "roll_off_rounds" in data:
        _check_roll_off(game, data["roll_off_rounds"])
    return game
