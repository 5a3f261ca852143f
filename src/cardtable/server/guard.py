"""ASGI middleware: the host asked for, bounded request bodies, no cross-origin changes, protective headers.

A server answers only requests addressed to one of its names: a page of
another site whose name was pointed at this machine (DNS rebinding) is refused.
A loopback server knows its names; one open to the network takes any address
too (``192.168.1.5``), since no site can rebind an address, besides the names
it is given.
The body limit is enforced on the bytes actually received, not only on the
``Content-Length`` a client claims, so a chunked upload cannot grow past it.
A request that would change something (POST) and comes from a page of another
origin is refused: the SameSite cookie already keeps other sites' requests
anonymous, but another server on this machine is the same "site". ``HEAD``
is answered wherever ``GET`` is, as HTTP asks, and the players' own data is
never cached.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_BODY: Final = 64 * 1024
"""Bytes a request body may hold: a two-deck position is about 1 kB."""

HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)
PAGE_POLICY: Final = (
    b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:;"
    b" connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
"""The Content-Security-Policy of our own pages, ``/docs`` among them: nothing from elsewhere."""


class Guard:
    """Refuse foreign hosts (400), cross-origin changes (403) and oversized bodies (413); add security headers."""

    def __init__(
        self,
        app: ASGIApp,
        max_body: int = MAX_BODY,
        allowed_hosts: Iterable[str] | None = None,
        *,
        any_address: bool = False,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.allowed_hosts = None if allowed_hosts is None else frozenset(h.lower() for h in allowed_hosts)
        self.any_address = any_address

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(scope, dict(scope["headers"]))
        if refusal is not None:
            await _refuse(send, *refusal)
            return
        received = 0

        async def bounded() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise HTTPException(413, self._too_large)
            return message

        api = scope["path"].startswith("/api")
        page = not api and not scope["path"].startswith("/openapi")
        head = api and scope["method"] == "HEAD"  # the page routes take HEAD already
        if head:
            scope = {**scope, "method": "GET"}

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + list(HEADERS)
                if page:
                    headers.append((b"content-security-policy", PAGE_POLICY))
                if api or any(name.lower() == b"set-cookie" for name, _ in headers):
                    # one player's games, or a page handing out a player's cookie: never kept by a cache on the way
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            elif head:  # the headers of GET, the body left out
                message = {**message, "body": b""}
            await send(message)

        await self.app(scope, bounded, with_headers)

    def _refusal(self, scope: Scope, headers: dict[bytes, bytes]) -> tuple[int, str] | None:
        """The status and the reason to refuse a request with before it reaches the app, or None to let it in."""
        host = _host_name(headers.get(b"host", b"").decode("latin-1"))
        if self.allowed_hosts is not None and host not in self.allowed_hosts:
            if not self.any_address:
                return 400, f"the host {host!r} is not this server's name: open it by 127.0.0.1 or localhost"
            if not _is_address(host):
                names = ", ".join(sorted(name for name in self.allowed_hosts if not _is_address(name)))
                return 400, (
                    f"the host {host!r} is not this server's name: open it by an address or by {names}"
                    " (cardtable serve --allow-host NAME adds a name)"
                )
        if scope["method"] not in SAFE_METHODS and not _same_origin(headers, scope.get("scheme", "http")):
            return 403, "a request from another origin may not change anything here"
        claimed = headers.get(b"content-length")
        if claimed is not None and (not claimed.isdigit() or int(claimed) > self.max_body):
            return 413, self._too_large  # what a body is claimed to hold; bounded() counts what it does
        return None

    @property
    def _too_large(self) -> str:
        return f"the request body is over {self.max_body} bytes"


def _same_origin(headers: dict[bytes, bytes], scheme: str) -> bool:
    """Whether the request's Origin (if the browser sent one) is this server's own: its scheme, host and port."""
    origin = headers.get(b"origin")
    if origin is None:
        return True  # not sent by a browser page: scripts, curl, the tests' client
    host = headers.get(b"host", b"").decode("latin-1")
    try:
        sent = urlsplit(origin.decode("latin-1"))
    except ValueError:  # not a URL at all ("http://[::1"): no page of this server sent it
        return False
    return (sent.scheme, sent.netloc) == (scheme, host)


def _is_address(host: str) -> bool:
    """Whether ``host`` is an IP address rather than a name: ``192.168.1.5``, ``fe80::1``."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _host_name(host: str) -> str:
    """The name in a Host header, without its port: ``127.0.0.1``, ``localhost``, ``::1`` (from ``[::1]:8000``)."""
    if host.startswith("["):
        return host[1 : host.find("]")].lower() if "]" in host else host.lower()
    return host.partition(":")[0].lower()


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
