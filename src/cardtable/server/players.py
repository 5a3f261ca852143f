"""Who is playing: a random token in an HttpOnly cookie, stored only as its hash.

There are no accounts: a browser is a player. The token never appears in the
database (a copied database gives no way to act as its players), and a cookie
that does not look like one of ours is replaced rather than trusted.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Final

from fastapi import Request, Response

COOKIE: Final = "cardtable_player"
TOKEN_BYTES: Final = 32
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{43}")
TEN_YEARS: Final = 10 * 365 * 24 * 3600


def new_token() -> str:
    """A fresh player token (256 random bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def player_key(token: str) -> str:
    """What the store knows a player by: the token's SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def player(request: Request, response: Response) -> str:
    """The dependency that names the player, giving a new browser a token."""
    return player_key(welcome(request, response))


def welcome(request: Request, response: Response) -> str:
    """Send the player's cookie (a new token if the request has none of ours); return the token.

    The cookie is HttpOnly (no script reads it), SameSite=Lax (other sites'
    requests do not carry it) and long-lived; each visit renews it.
    """
    token = request.cookies.get(COOKIE)
    if token is None or not _TOKEN.fullmatch(token):
        token = new_token()
    response.set_cookie(COOKIE, token, max_age=TEN_YEARS, path="/", httponly=True, samesite="lax")
    return token
