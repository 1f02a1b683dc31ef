"""A throwaway `redis-server` on a free loopback port (no persistence): for the tests and the bench."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

MISSING = "redis-server is not installed (Debian package redis-server; ci/system-deps.sh installs it)"


def redis_server_path() -> str | None:
    return shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """One redis-server process; `stop()` and `start()` again on the same port (it comes back empty)."""

    def __init__(self, directory: Path, port: int | None = None) -> None:
        exe = redis_server_path()
        if exe is None:
            raise FileNotFoundError(MISSING)
        self.exe = exe
        self.directory = directory
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.proc = subprocess.Popen(
            [self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis

        client = redis.Redis(host="127.0.0.1", port=self.port)
        for _ in range(200):
            try:
                client.ping()
                return self
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
            self.proc = None

    def client(self) -> Any:
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port)
