"""The ruleset lookup: find a ruleset by the name people type and build it with options.

Each ruleset registers itself from its own module in ``yatzy/rulesets/``; the views here
(:data:`VARIANTS`, :data:`RULESETS`, :data:`OPTIONS`, :data:`ALIASES`) are computed from
what registered, in menu order, whenever they are read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar, overload

from .errors import InvalidActionError, UnknownRulesetError
from .i18n import _
from .rules import Ruleset
from .rulesets.parts import OptionSpec, RulesetEntry, registered

T = TypeVar("T")
V = TypeVar("V")


class _Listed(Sequence[T]):
    """A read-only sequence computed afresh from the registered rulesets."""

    def __init__(self, items: Callable[[], tuple[T, ...]]) -> None:
        self._items = items

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...
    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return self._items()[index]

    def __len__(self) -> int:
        return len(self._items())

    def __repr__(self) -> str:
        return repr(self._items())


class _Keyed(Mapping[str, V]):
    """A read-only mapping computed afresh from the registered rulesets."""

    def __init__(self, items: Callable[[], dict[str, V]]) -> None:
        self._items = items

    def __getitem__(self, key: str) -> V:
        return self._items()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())

    def __repr__(self) -> str:
        return repr(self._items())


VARIANTS: Sequence[RulesetEntry] = _Listed(registered)
"""Every ruleset the engine plays, in the order menus list them."""
RULESETS: Sequence[str] = _Listed(lambda: tuple(e.name for e in registered()))
OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = _Keyed(lambda: {e.name: e.options for e in registered()})
ALIASES: Mapping[str, str] = _Keyed(lambda: {a: e.name for e in registered() for a in (e.name, *e.aliases)})


def find_variant(name: str) -> RulesetEntry:
    """The registry entry for a ruleset id or alias people type ("Maxi-Yatzy", "pakko").

    :raises UnknownRulesetError: no ruleset has that name, listing the known ones.
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    for entry in registered():
        if key == entry.name or key in entry.aliases:
            return entry
    aliases = ", ".join(sorted(a for a in ALIASES if a not in RULESETS))
    raise UnknownRulesetError(
        _("unknown ruleset “{name}”; known rulesets: {rulesets} (also: {aliases})").format(
            name=name, rulesets=", ".join(RULESETS), aliases=aliases))


def canonical(name: str) -> str:
    """The canonical ruleset id for a name or alias people type."""
    return find_variant(name).name


def get_ruleset(name: str = "yatzy", **options: object) -> Ruleset:
    """Build a ruleset by name or alias with house-rule options, e.g. ``joker="free"``."""
    return find_variant(name).build(**options)


def parse_options(pairs: list[str]) -> dict[str, str]:
    """Turn ``["joker=free", "order=up"]`` into a dict; InvalidActionError on a bad pair."""
    out: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise InvalidActionError(_("options are written name=value, not “{pair}”").format(pair=pair))
        k, v = pair.split("=", 1)
        out[k.strip().replace("-", "_")] = v.strip()
    return out
