"""The web's ordinary defences, in front of every route (docs/security.md lists each and its test).

- **Security headers** on every HTTP answer: a Content-Security-Policy that allows only the
  server's own scripts, styles, images and connections (the page has no inline script or
  style attribute, no ``eval``), no framing (``frame-ancestors 'none'``, ``X-Frame-Options``),
  ``nosniff`` and no referrer.
- **Allowed hosts**: a request whose ``Host`` is not one of the server's names is refused
  (400 ``bad_host``), so links built from the request (the invite link, its QR code) never
  carry a forged host.
- **JSON-only changes**: a ``POST`` under ``/api/`` must say ``Content-Type: application/json``
  (415 ``not_json`` otherwise): a form on another site cannot send that, and a script there
  that tries must ask first (CORS), which the server never allows.
- **WebSocket origin**: a browser's WebSocket from a page of another site is refused at
  connect (closed 1008 before it is accepted: the handshake gets HTTP 403); a client
  without ``Origin`` (not a browser) is let in, its token is what it must show.
- **Client addresses**: a forwarded address (``X-Forwarded-For``) counts only when the
  connection comes from a configured proxy (:func:`install`'s ``proxies``, uvicorn's
  ``ProxyHeadersMiddleware``); with none, no forwarded header is trusted, not even from
  127.0.0.1. :func:`client_address` is the one address every per-address limit counts.
- **Validation errors** that name a number JSON cannot carry (``1e400`` is read as infinity)
  are answered 422 with the number as text, not a 500.
"""

from __future__ import annotations

import ipaddress
import json
import math
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from ..errors import InvalidActionError
from ..i18n import LANGUAGES, _, language
from .protocol import ErrorCode

__all__ = ["DEFAULT_HOSTS", "SecurityMiddleware", "address_key", "allowed_hosts", "client_address", "install",
           "proxies"]

DEFAULT_HOSTS = ("localhost", "127.0.0.1")
"""The names a server always answers to, beside the address it listens on."""

_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY")]
_CHANGES = {"POST", "PUT", "PATCH", "DELETE"}


def allowed_hosts(names: Iterable[str], bind: str | None, public_url: str | None) -> frozenset[str]:
    """The hosts a server answers to: ``names`` (``host`` or ``host:port``), the address it
    listens on, localhost, 127.0.0.1 and the public URL's host."""
    hosts = {n.strip().lower() for n in names if n.strip()} | set(DEFAULT_HOSTS)
    if bind:
        hosts.add(bind.lower())
    if public_url and urlsplit(public_url).netloc:
        hosts.add(urlsplit(public_url).netloc.lower())
    return frozenset(hosts)


def proxies(values: Iterable[str]) -> list[str]:
    """The reverse proxies whose ``X-Forwarded-For`` is trusted, each an IP address or a network
    (``10.0.0.0/8``), written as uvicorn reads them.

    :raises InvalidActionError: a value is neither (uvicorn would take it as a name that never
        matches, and trust nothing without a word).
    """
    checked = []
    for value in values:
        try:
            checked.append(str(ipaddress.ip_network(value.strip(), strict=False)) if "/" in value
                           else str(ipaddress.ip_address(value.strip())))
        except ValueError:
            raise InvalidActionError(_("{value} is not an IP address or network (such as 127.0.0.1 or "
                                       "10.0.0.0/8)").format(value=value)) from None
    return checked


def client_address(connection: HTTPConnection) -> str:
    """The address a request or WebSocket comes from, as every per-address limit counts it: the
    connection's own, or the one a trusted proxy forwarded (see :func:`install`), as
    :func:`address_key` counts it. (From a middleware: ``client_address(HTTPConnection(scope))``.)
    """
    return address_key(connection.client.host if connection.client else "")


def address_key(host: str) -> str:
    """What one client is counted as: its IPv4 address (also when a dual-stack socket writes it
    as ``::ffff:192.0.2.1``), or its IPv6 address's /64 network, the block one household or
    machine is given, so stepping through it does not make a new client; a name that is no
    address (a test client's) as it is."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _host_name(netloc: str) -> str:
    """``netloc`` without its port (``[::1]:8000`` -> ``[::1]``)."""
    if netloc.startswith("["):
        return netloc.split("]", 1)[0] + "]"
    return netloc.rsplit(":", 1)[0] if netloc.count(":") == 1 else netloc


def host_allowed(netloc: str, hosts: frozenset[str] | None) -> bool:
    """Whether a ``Host`` header (name, with or without a port) is one of ``hosts`` (None: any)."""
    if hosts is None:
        return True
    netloc = netloc.lower()
    return bool(netloc) and (netloc in hosts or _host_name(netloc) in hosts)


def _csp(host: str) -> bytes:
    """The page's policy: everything from the server itself, WebSockets to the same host."""
    connect = f"'self' ws://{host} wss://{host}" if host else "'self'"
    return (f"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
            f"connect-src {connect}; object-src 'none'; base-uri 'none'; form-action 'self'; "
            f"frame-ancestors 'none'").encode()


def _lang(scope: Scope) -> str:
    asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", ["en"])[0]
    return asked if asked in LANGUAGES else "en"


def _refuse(status: int, code: ErrorCode, message: str) -> tuple[int, str, str]:
    """A refusal the middleware answers itself (as :func:`~yatzy.web.deps.http_error` would)."""
    return status, code, message


class SecurityMiddleware:
    """The checks and headers of this module's docstring, as plain ASGI (WebSockets too)."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str] | None) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        with language(_lang(scope)):
            refusal: tuple[int, str, str] | None = None
            if not host_allowed(host, self.hosts):
                refusal = _refuse(400, "bad_host", _("this server does not answer to the host {host}").format(
                    host=host[:80] or "-"))
            elif scope["type"] == "websocket":
                origin = headers.get("origin")
                if origin is not None and not self._origin_allowed(origin, host):
                    await send({"type": "websocket.close", "code": 1008})
                    return
            elif scope["method"] in _CHANGES and scope["path"].startswith("/api/") and \
                    headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
                refusal = _refuse(415, "not_json",
                                  _("send the request as JSON (Content-Type: application/json)"))
        if refusal is not None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            status, code, message = refusal
            await JSONResponse({"detail": {"code": code, "message": message}}, status)(
                scope, receive, self._with_headers(send, host))
            return
        await self.app(scope, receive, self._with_headers(send, host) if scope["type"] == "http" else send)

    def _origin_allowed(self, origin: str, host: str) -> bool:
        netloc = urlsplit(origin).netloc.lower()
        return netloc == host.lower() or (self.hosts is not None and host_allowed(netloc, self.hosts))

    @staticmethod
    def _with_headers(send: Send, host: str) -> Send:
        csp = _csp(host if all(c.isalnum() or c in ".-:[]" for c in host) else "")

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_HEADERS,
                                      (b"content-security-policy", csp)]
            await send(message)
        return sending


def _finite(value: Any) -> Any:
    """``value`` with every number JSON cannot carry (infinity, NaN) written as text."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422 answer, with what it quotes of the request made JSON-safe."""
    assert isinstance(exc, RequestValidationError)
    detail = json.loads(json.dumps(_finite(jsonable_encoder(exc.errors())), default=str))
    return JSONResponse({"detail": detail}, 422)


def install(app: FastAPI, hosts: frozenset[str] | None, trusted: Iterable[str] = ()) -> None:
    """Put the defences in front of ``app``'s routes (``hosts``: the allowed hosts, None: any).

    ``trusted``: the reverse proxies (addresses or networks, from :func:`proxies`) whose
    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` stand for the client's; uvicorn's middleware
    reads them outermost, so every check and limit sees the client's address. None trusted: no
    forwarded header counts (uvicorn's own reading is off, see :func:`~yatzy.web.app.run_server`).
    """
    app.add_middleware(SecurityMiddleware, hosts=hosts)
    app.add_exception_handler(RequestValidationError, _validation_error)
    if trusted := list(trusted):
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=trusted)
