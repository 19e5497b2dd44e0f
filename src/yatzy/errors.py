"""Exceptions: malformed input versus moves the rules forbid right now."""

from __future__ import annotations


class YatzyError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidActionError(YatzyError):
    """The input is malformed: a die that is not 1..6, an unknown category id, a bad option."""


class IllegalActionError(YatzyError):
    """The input is well formed but the rules forbid it now (filled box, no rolls left, ...)."""


class UnknownRulesetError(YatzyError):
    """No ruleset has that name or alias."""
