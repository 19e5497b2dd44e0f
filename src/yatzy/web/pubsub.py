"""Fan-out of room events between server processes: a pub/sub backend chosen by URL.

``PubSub.from_url(None)`` (or ``memory://``) is the in-process backend: one uvicorn process.
Several processes sharing rooms need a shared backend (Redis, ``redis://...``): every process
subscribes to the channels of the rooms it holds, and a published message reaches them all.
A message is a JSON-ready dict; a handler is an async function that takes one.

Every backend hands a message to this process's own subscribers at once (awaiting each
handler in turn); Redis carries it to the other processes, whose subscribers get it in the
order it was published from one process. Each backend has an :attr:`~PubSub.origin`, the
id of this process, which the Redis backend puts on every message it sends so that a
process does not get its own messages twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Coroutine
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

    origin: str
    """This process's id on the backend (a fresh one for each backend)."""
    on_reconnect: Callable[[], Coroutine[Any, Any, None]] | None = None
    """Called once the backend is back after losing its connection (messages published by
    others meanwhile did not arrive; the caller reads what it missed elsewhere)."""

    @abstractmethod
    async def publish(self, channel: str, message: dict[str, Any]) -> None: ...

    @abstractmethod
    async def subscribe(self, channel: str, handler: Handler) -> Subscription: ...

    async def close(self) -> None:  # noqa: B027 - a backend without connections has nothing to close
        """Let go of connections (nothing to do in process)."""

    @staticmethod
    def from_url(url: str | None) -> PubSub:
        """The backend for ``url``: None or ``memory://`` in process, ``redis://host:port/db``
        (or ``rediss://``) through Redis. Nothing connects until the first publish or subscribe.

        :raises InvalidActionError: an unknown scheme, or a Redis URL that does not parse.
        """
        if url is None or url in ("memory://", "memory"):
            return InProcessPubSub()
        if url.startswith(("redis://", "rediss://")):
            return RedisPubSub(url)
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
        self.origin = uuid.uuid4().hex

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        await self.deliver(channel, message)

    async def deliver(self, channel: str, message: dict[str, Any]) -> None:
        """Hand a message to this process's subscribers of ``channel``, one after another."""
        for handler in list(self.channels.get(channel, [])):
            try:
                await handler(message)
            except Exception:  # one failing subscriber must not stop the others
                log.exception("pub/sub handler failed on %s", channel)

    async def subscribe(self, channel: str, handler: Handler) -> Subscription:
        self.channels.setdefault(channel, []).append(handler)
        await asyncio.sleep(0)
        return _InProcessSubscription(self, channel, handler)


class _RedisSubscription(_InProcessSubscription):
    async def close(self) -> None:
        await super().close()
        owner = self.owner
        assert isinstance(owner, RedisPubSub)
        if not owner.channels.get(self.channel):
            owner.channels.pop(self.channel, None)
            await owner.leave(self.channel)


class RedisPubSub(InProcessPubSub):
    """Redis pub/sub (redis-py's asyncio client): a publish reaches this process's
    subscribers at once and every other process through Redis.

    Publishing goes one message at a time (a message is sent once the one before it is
    in), so a channel's messages reach the others in the order this process published them.
    One connection listens: it subscribes to the channels this process has
    subscribers for, and a reader task hands each message from another process to a worker
    per channel (so one slow room does not hold up the others, and a channel's messages stay
    in order). If Redis goes away, publishing logs the failure (the action stays committed)
    and the reader reconnects, subscribing again, then calls :attr:`on_reconnect` (the rooms
    read what they missed from the database).
    """

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        try:
            self.redis = redis.Redis.from_url(url, health_check_interval=30)
        except ValueError as e:
            raise InvalidActionError(_("not a Redis URL: “{url}” ({error})").format(
                url=url, error=e)) from None
        self.url = url
        self._listener = self.redis.pubsub(ignore_subscribe_messages=True)
        self._reader: asyncio.Task[None] | None = None
        self._queues: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        self._publishing = asyncio.Lock()
        self._catching_up: asyncio.Task[None] | None = None

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        await self.deliver(channel, message)
        data = json.dumps({"origin": self.origin, "message": message}, separators=(",", ":"))
        try:
            async with self._publishing:  # one at a time: Redis gets them in the order published
                await self.redis.publish(channel, data)
        except Exception as e:  # the action is committed whatever Redis does
            log.error("pub/sub: publishing on %s through Redis failed: %s", channel, e)

    async def subscribe(self, channel: str, handler: Handler) -> Subscription:
        new = channel not in self.channels
        self.channels.setdefault(channel, []).append(handler)
        if new:
            await self._listener.subscribe(channel)
            if self._reader is None:
                self._reader = asyncio.get_running_loop().create_task(self._read())
        return _RedisSubscription(self, channel, handler)

    async def leave(self, channel: str) -> None:
        worker = self._workers.pop(channel, None)
        if worker is not None:
            worker.cancel()
        self._queues.pop(channel, None)
        with contextlib.suppress(Exception):
            await self._listener.unsubscribe(channel)

    async def _read(self) -> None:
        """Take messages off the listening connection, for as long as this backend lives."""
        cut_off = False
        while True:
            try:
                if not self._listener.subscribed:
                    await asyncio.sleep(0.05)
                    continue
                raw = await self._listener.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if not cut_off:
                    log.error("pub/sub: reading from Redis failed (%s); reconnecting", e)
                cut_off = True
                await asyncio.sleep(0.5)
                continue
            if cut_off:
                connection = self._listener.connection
                if connection is None or not connection.is_connected:  # not back yet
                    await asyncio.sleep(0.5)
                    continue
                cut_off = False
                log.warning("pub/sub: Redis is back")
                if self.on_reconnect is not None:
                    self._catching_up = asyncio.get_running_loop().create_task(self.on_reconnect())
            if raw is None or raw.get("type") != "message":
                continue
            channel = raw["channel"].decode() if isinstance(raw["channel"], bytes) else str(raw["channel"])
            try:
                envelope = json.loads(raw["data"])
            except (ValueError, TypeError):
                log.error("pub/sub: not JSON on %s", channel)
                continue
            if envelope.get("origin") == self.origin or channel not in self.channels:
                continue
            queue = self._queues.get(channel)
            if queue is None:
                queue = self._queues[channel] = asyncio.Queue()
                self._workers[channel] = asyncio.get_running_loop().create_task(self._work(channel, queue))
            queue.put_nowait(envelope["message"])

    async def _work(self, channel: str, queue: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            await self.deliver(channel, await queue.get())

    async def close(self) -> None:
        tasks = [t for t in (self._reader, self._catching_up, *self._workers.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._reader = None
        self._workers.clear()
        with contextlib.suppress(Exception):
            await self._listener.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
