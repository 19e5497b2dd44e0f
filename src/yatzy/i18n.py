"""Every word a player reads, from one gettext catalog per language.

The language is a context setting: a front end (or a web request, or a session) runs
``with language("fi"):`` and every message, error and name made inside comes out in
Finnish. Strings defined at import time (box rules, option help) are marked with ``N_``
and translated where they are shown. Catalogs live in ``yatzy/locale/<lang>/LC_MESSAGES``;
``scripts/translations`` extracts and compiles them with Babel.
"""

from __future__ import annotations

import copy
import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from babel import Locale
from babel.numbers import format_decimal

from .errors import InvalidActionError

LANGUAGES = ("en", "fi", "sv", "da", "nb", "ru")
LANGUAGE_NAMES = {"en": "English", "fi": "suomi", "sv": "svenska", "da": "dansk", "nb": "norsk bokmål",
                  "ru": "русский"}
DOMAIN = "yatzy"
LOCALE_DIR = Path(__file__).parent / "locale"

_current: ContextVar[str] = ContextVar("yatzy_language", default="en")


def check_language(lang: object) -> str:
    """``lang`` if it is one of the six languages; InvalidActionError naming them if not
    (in the current language). The one check of a language a person gives: the command
    line's ``--lang``, the terminal app, a session, a view, a web request."""
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise InvalidActionError(_("unknown language “{lang}”; choose one of {languages}").format(
            lang=lang, languages=", ".join(LANGUAGES)))
    return lang


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of a language (English is the source text itself)."""
    check_language(lang)
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, [lang])


def current_language() -> str:
    return _current.get()


@contextmanager
def language(lang: str) -> Iterator[str]:
    """Within the block, messages come out in ``lang``."""
    token = _current.set(check_language(lang))
    try:
        yield lang
    finally:
        _current.reset(token)


def set_language(lang: str) -> None:
    """Set the language for the rest of this context (a command-line run)."""
    _current.set(check_language(lang))


def _(message: str) -> str:
    """A message in the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for a count, by the current language's plural rule."""
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A message in a context (box names: "box"), for words that translate differently."""
    return translations(_current.get()).pgettext(context, message)


def number(x: float, digits: int = 0, *, sign: bool = False) -> str:
    """``x`` with ``digits`` decimals, written as the current language writes numbers (Babel's
    locale data): 248.4 and 12,000 in English, 248,4 and 12 000 in Finnish; ``sign`` puts a
    + before a positive number."""
    body = "#,##0" + ("." + "0" * digits if digits else "")
    pattern = f"+{body};-{body}" if sign else body
    return str(format_decimal(x, format=pattern, locale=_locale(_current.get())))


def percent(x: float, digits: int = 0) -> str:
    """The share ``x`` (0.25) as a percentage, the current language's way (25%; 25 % in Finnish)."""
    locale = _locale(_current.get())
    pattern = copy.copy(locale.percent_formats[None])
    pattern.frac_prec = (digits, digits)
    return str(pattern.apply(x, locale))


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def N_(message: str) -> str:  # noqa: N802 - gettext's name for "mark, translate later"
    """Mark a string for the catalog without translating it now."""
    return message


def NC_(context: str, message: str) -> tuple[str, str]:  # noqa: N802 - as N_, with a context
    """Mark a string in a context for the catalog without translating it now (translate it
    with ``pgettext(*marked)``): for an English word that reads otherwise elsewhere."""
    return context, message
