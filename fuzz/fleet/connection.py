"""Which Redis the fleet uses, and how it is named in anything printed.

The URL comes from `--redis URL` or `$EMBER_REDIS_URL` (the same variable the example
database uses), its password from the URL or `$EMBER_REDIS_PASSWORD`. Nothing of it but
the redacted form (`redis://user:***@host:port/db`) is ever printed, logged or written
into a finding.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from compiler.diagnostics import UsageError

URL_ENV = "EMBER_REDIS_URL"
PASSWORD_ENV = "EMBER_REDIS_PASSWORD"
#: seconds to wait for a connection or a reply before the fleet counts Redis as down
TIMEOUT_S = 5.0


def redact(url: str) -> str:
    """`url` with its password (if any) replaced by `***`; anything unparsable becomes `<redis url>`."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return "<redis url>"
    if parts.password is None and "@" not in parts.netloc:
        return url
    user = parts.username or ""
    cred = f"{user}:***@" if parts.password is not None else f"{user}@"
    netloc = cred + (f"[{host}]" if ":" in host else host) + (f":{port}" if port is not None else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def resolve_url(option: str | None) -> str | None:
    """`--redis URL`, else `$EMBER_REDIS_URL`, else None; a URL that is not redis:// or rediss:// or
    unix:// is bad usage (said with the password redacted)."""
    url = option if option else os.environ.get(URL_ENV) or None
    if url is None:
        return None
    try:
        scheme = urlsplit(url).scheme
    except ValueError:
        scheme = ""
    if scheme not in ("redis", "rediss", "unix"):
        raise UsageError(f"--redis {redact(url)}: expected redis://host:port/db (or rediss://, unix://)")
    try:
        connect(url)  # parses the URL; nothing is sent yet
    except ValueError as exc:
        raise UsageError(f"--redis {redact(url)}: {describe_error(exc, url)}") from None
    return url


def connect(url: str) -> Any:
    """A redis-py client for `url` (nothing is sent until it is used)."""
    import redis

    kwargs: dict[str, Any] = {"socket_timeout": TIMEOUT_S, "socket_connect_timeout": TIMEOUT_S}
    password = os.environ.get(PASSWORD_ENV)
    if password and urlsplit(url).password is None:
        kwargs["password"] = password
    return redis.Redis.from_url(url, **kwargs)


def describe_error(exc: BaseException, url: str) -> str:
    """A one-line reason Redis failed, without credentials."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    for secret in (urlsplit(url).password, os.environ.get(PASSWORD_ENV)):
        if secret:
            text = text.replace(secret, "***")
    return text.replace(url, redact(url))[:200]


#: redacted URLs this process has said are down (one line per outage, whoever notices first)
_DOWN: set[str] = set()


def note_down(url: str, exc: BaseException) -> None:
    """Say once per outage, in one line on stderr, that Redis is unreachable and the campaign goes on."""
    import sys

    where = redact(url)
    if where in _DOWN:
        return
    _DOWN.add(where)
    print(
        f"ember fleet: Redis {where} unreachable ({describe_error(exc, url)}); going on locally, "
        "findings are queued and uploaded when it is back (or by the next run with --redis)",
        file=sys.stderr, flush=True,
    )


def note_up(url: str) -> bool:
    """Redis answered again; True when it had been noted down."""
    where = redact(url)
    if where in _DOWN:
        _DOWN.discard(where)
        return True
    return False
