"""ASGI middleware that bounds request bodies and sets protective headers on every answer.

The body limit is enforced on the bytes actually received, not only on the
``Content-Length`` a client claims, so a chunked upload cannot grow past it.
"""

from __future__ import annotations

import json
from typing import Final

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
"""The Content-Security-Policy of our own pages (the OpenAPI docs page loads its own scripts)."""


class Guard:
    """Refuse oversized bodies with 413; add security headers to every response."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        claimed = dict(scope["headers"]).get(b"content-length")
        if claimed is not None and (not claimed.isdigit() or int(claimed) > self.max_body):
            await _too_large(send, self.max_body)
            return
        received = 0

        async def bounded() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise HTTPException(413, f"the request body is over {self.max_body} bytes")
            return message

        page = not scope["path"].startswith(("/api", "/docs", "/redoc", "/openapi"))

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + list(HEADERS)
                if page:
                    headers.append((b"content-security-policy", PAGE_POLICY))
                message["headers"] = headers
            await send(message)

        await self.app(scope, bounded, with_headers)


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"detail": f"the request body is over {limit} bytes"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
