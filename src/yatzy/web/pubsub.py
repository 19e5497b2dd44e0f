"""Fan-out of room events between server processes: a pub/sub backend chosen by URL.

``PubSub.from_url(None)`` (or ``memory://``) is the in-process backend: one uvicorn process.
Several processes sharing rooms need a shared backend (Redis, ``redis://...``): every process
subscribes to the channels of the rooms it holds, and a published message reaches them all.
A message is a JSON-ready dict; a handler is an async function that takes one.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any

from ..errors import InvalidActionError
from ..i18n import _

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class Subscription(ABC):
    """A live subscription; :meth:`close` ends it."""

    @abstractmethod
    async def close(self) -> None: ...


class PubSub(ABC):
    """Publish messages to a channel; every subscriber of the channel (in any process the
    backend reaches) gets each one, in the order published."""

    @abstractmethod
    async def publish(self, channel: str, message: dict[str, Any]) -> None: ...

    @abstractmethod
    async def subscribe(self, channel: str, handler: Handler) -> Subscription: ...

    async def close(self) -> None:  # noqa: B027 - a backend without connections has nothing to close
        """Let go of connections (nothing to do in process)."""

    @staticmethod
    def from_url(url: str | None) -> PubSub:
        """The backend for ``url``: None or ``memory://`` in process.

        :raises InvalidActionError: an unknown scheme, or ``redis://`` (not built yet).
        """
        if url is None or url in ("memory://", "memory"):
            return InProcessPubSub()
        if url.startswith(("redis://", "rediss://")):
            raise InvalidActionError(_("the Redis pub/sub backend is not built yet; run one server "
                                       "process with the in-process backend"))
        raise InvalidActionError(_("unknown pub/sub URL “{url}”; use memory:// or redis://host:port").format(
            url=url))


class _InProcessSubscription(Subscription):
    def __init__(self, owner: InProcessPubSub, channel: str, handler: Handler) -> None:
        self.owner, self.channel, self.handler = owner, channel, handler

    async def close(self) -> None:
        handlers = self.owner.channels.get(self.channel, [])
        if self.handler in handlers:
            handlers.remove(self.handler)


class InProcessPubSub(PubSub):
    """Subscribers in this process only: a publish awaits each handler in turn."""

    def __init__(self) -> None:
        self.channels: dict[str, list[Handler]] = {}

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        for handler in list(self.channels.get(channel, [])):
            try:
                await handler(message)
            except Exception:  # one failing subscriber must not stop the others
                log.exception("pub/sub handler failed on %s", channel)

    async def subscribe(self, channel: str, handler: Handler) -> Subscription:
        self.channels.setdefault(channel, []).append(handler)
        await asyncio.sleep(0)
        return _InProcessSubscription(self, channel, handler)
