"""An asyncio client of `progagent rollout serve` (standard library only).

Every request runs on the event loop with a deadline: nothing here blocks a trainer's rollout workers.
Connections are kept alive and reused per service; a request that fails on a reused connection before
any byte of the answer arrived is retried once on a fresh connection.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import urllib.parse
import weakref
import zlib
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

__all__ = [
    "RolloutServiceError",
    "ServiceBusyError",
    "ServiceClient",
    "ServicePool",
]

MAX_RESPONSE_BYTES = 64 * 1024 * 1024


class RolloutServiceError(Exception):
    """An error answer of the service (`{"error": {"code", "message"}}`) or a transport failure.

    `status` is the HTTP status (0 for a transport failure), `code` the service's stable error code.
    """

    def __init__(self, message: str, *, status: int = 0, code: str = "TRANSPORT", details: Any = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.details = details

    @property
    def retryable(self) -> bool:
        return self.status in (0, 429, 502, 503, 504)


class ServiceBusyError(RolloutServiceError):
    """429: the service holds its maximum of live episodes. `retry_after_s` is the server's hint."""

    def __init__(self, message: str, *, retry_after_s: float, details: Any = None):
        super().__init__(message, status=429, code="SERVICE_FULL", details=details)
        self.retry_after_s = retry_after_s


@dataclass
class _Connection:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    used: bool = False

    def close(self) -> None:
        try:
            self.writer.close()
        except Exception:  # noqa: BLE001 - closing a broken socket
            pass


@dataclass
class ServiceClient:
    """One rollout service, e.g. `ServiceClient("http://127.0.0.1:8700")`.

    `auth_token` is sent as a bearer token; `timeout_s` bounds every request (connect, send, answer).
    """

    base_url: str
    auth_token: Optional[str] = None
    timeout_s: float = 120.0
    max_idle_connections: int = 64
    _host: str = field(init=False)
    _port: int = field(init=False)
    _prefix: str = field(init=False)
    # Idle connections per event loop: a stream belongs to the loop that opened it, and trainers run
    # several loops (ms-swift's colocate mode opens a new one per batch).
    _idle_by_loop: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, List[_Connection]]" = field(
        init=False, default_factory=weakref.WeakKeyDictionary
    )

    def __post_init__(self) -> None:
        parsed = urllib.parse.urlsplit(self.base_url)
        if parsed.scheme != "http" or not parsed.hostname:
            raise ValueError(f"expected a service URL like http://127.0.0.1:8700, got {self.base_url!r}")
        self._host = parsed.hostname
        self._port = parsed.port or 80
        self._prefix = parsed.path.rstrip("/")
        if self.timeout_s <= 0:
            raise ValueError(f"timeout_s must be positive, got {self.timeout_s}")

    async def request(self, method: str, path: str, body: Any = None) -> Tuple[int, Any]:
        """Sends one request; returns (status, parsed JSON or text). Raises on error statuses."""
        try:
            return await asyncio.wait_for(self._request(method, path, body), self.timeout_s)
        except asyncio.TimeoutError:
            raise RolloutServiceError(
                f"{method} {path}: no answer from {self.base_url} within {self.timeout_s:g} s"
            ) from None

    async def _request(self, method: str, path: str, body: Any) -> Tuple[int, Any]:
        payload = b"" if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        head = [
            f"{method} {self._prefix}{path} HTTP/1.1",
            f"Host: {self._host}:{self._port}",
            "Accept: application/json",
            "Connection: keep-alive",
            f"Content-Length: {len(payload)}",
        ]
        if body is not None:
            head.append("Content-Type: application/json")
        if self.auth_token:
            head.append(f"Authorization: Bearer {self.auth_token}")
        data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload
        for attempt in range(2):
            connection = await self._acquire(fresh=attempt > 0)
            reused = connection.used
            try:
                connection.writer.write(data)
                await connection.writer.drain()
                status, headers, raw = await self._read_response(connection.reader)
            except (ConnectionError, asyncio.IncompleteReadError, OSError) as error:
                connection.close()
                if reused and attempt == 0:
                    continue  # the server closed an idle keep-alive connection: retry once, fresh
                raise RolloutServiceError(f"{method} {path}: connection to {self.base_url} failed: {error}") from error
            connection.used = True
            if headers.get("connection", "").lower() == "close":
                connection.close()
            else:
                self._release(connection)
            return status, self._decode(method, path, status, headers, raw)
        raise RolloutServiceError(f"{method} {path}: connection to {self.base_url} failed twice")

    @property
    def _idle(self) -> List[_Connection]:
        return self._idle_by_loop.setdefault(asyncio.get_running_loop(), [])

    async def _acquire(self, fresh: bool) -> _Connection:
        idle = self._idle
        while idle and not fresh:
            connection = idle.pop()
            if not connection.writer.is_closing() and not connection.reader.at_eof():
                return connection
            connection.close()
        try:
            reader, writer = await asyncio.open_connection(self._host, self._port, limit=2**20)
        except OSError as error:
            raise RolloutServiceError(f"cannot connect to {self.base_url}: {error}") from error
        return _Connection(reader, writer)

    def _release(self, connection: _Connection) -> None:
        if len(self._idle) < self.max_idle_connections:
            self._idle.append(connection)
        else:
            connection.close()

    @staticmethod
    async def _read_response(reader: asyncio.StreamReader) -> Tuple[int, Dict[str, str], bytes]:
        status_line = await reader.readuntil(b"\r\n")
        parts = status_line.decode("latin-1").split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/"):
            raise ConnectionError(f"not an HTTP answer: {status_line[:80]!r}")
        status = int(parts[1])
        headers: Dict[str, str] = {}
        while True:
            line = await reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            total = 0
            while True:
                size_line = await reader.readuntil(b"\r\n")
                size = int(size_line.split(b";")[0].strip(), 16)
                if size == 0:
                    await reader.readuntil(b"\r\n")
                    break
                total += size
                if total > MAX_RESPONSE_BYTES:
                    raise ConnectionError(f"answer larger than {MAX_RESPONSE_BYTES} bytes")
                chunks.append(await reader.readexactly(size))
                await reader.readexactly(2)
            return status, headers, b"".join(chunks)
        length = int(headers.get("content-length", "0"))
        if length > MAX_RESPONSE_BYTES:
            raise ConnectionError(f"answer of {length} bytes is larger than {MAX_RESPONSE_BYTES}")
        return status, headers, await reader.readexactly(length)

    def _decode(self, method: str, path: str, status: int, headers: Mapping[str, str], raw: bytes) -> Any:
        text = raw.decode("utf-8", errors="replace")
        content_type = headers.get("content-type", "")
        value: Any = text
        if "json" in content_type and text:
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                value = text
        if status < 400:
            return value
        error = value.get("error") if isinstance(value, dict) else None
        code = str(error.get("code", "HTTP_ERROR")) if isinstance(error, dict) else "HTTP_ERROR"
        message = str(error.get("message", text)) if isinstance(error, dict) else text
        summary = f"{method} {path}: {status} {code}: {message}"
        if status == 429:
            retry_after = headers.get("retry-after", "1")
            try:
                seconds = float(retry_after)
            except ValueError:
                seconds = 1.0
            raise ServiceBusyError(summary, retry_after_s=max(0.05, seconds), details=error)
        raise RolloutServiceError(summary, status=status, code=code, details=error)

    async def close(self) -> None:
        """Closes the idle connections of every loop (those of a closed loop are already dead)."""
        for idle in list(self._idle_by_loop.values()):
            for connection in idle:
                connection.close()
            idle.clear()

    # The endpoints -------------------------------------------------------------------------------

    async def create_episode(self, spec: Mapping[str, Any], *, busy_deadline_s: float = 600.0) -> Dict[str, Any]:
        """POST /v1/episodes; waits (asynchronously) while the service answers 429, up to `busy_deadline_s`."""
        loop = asyncio.get_running_loop()
        give_up_at = loop.time() + busy_deadline_s
        while True:
            try:
                _, answer = await self.request("POST", "/v1/episodes", dict(spec))
                return answer
            except ServiceBusyError as busy:
                wait_s = busy.retry_after_s * (1 + random.random() * 0.25)
                if loop.time() + wait_s > give_up_at:
                    raise
                await asyncio.sleep(wait_s)

    async def tool_calls(self, episode_id: str, calls: Sequence[Mapping[str, Any]]) -> Dict[str, Any]:
        _, answer = await self.request("POST", f"/v1/episodes/{_quote(episode_id)}/tool_calls", {"calls": list(calls)})
        return answer

    async def completion(
        self, episode_id: str, *, text: Optional[str] = None, token_ids: Optional[Sequence[int]] = None
    ) -> Dict[str, Any]:
        if (text is None) == (token_ids is None):
            raise ValueError("completion takes exactly one of text= or token_ids=")
        body: Dict[str, Any] = {"text": text} if text is not None else {"token_ids": list(token_ids or [])}
        _, answer = await self.request("POST", f"/v1/episodes/{_quote(episode_id)}/completion", body)
        return answer

    async def get_episode(self, episode_id: str) -> Dict[str, Any]:
        _, answer = await self.request("GET", f"/v1/episodes/{_quote(episode_id)}")
        return answer

    async def delete_episode(self, episode_id: str) -> None:
        try:
            await self.request("DELETE", f"/v1/episodes/{_quote(episode_id)}")
        except RolloutServiceError as error:
            if error.status != 404:
                raise

    async def health(self) -> Dict[str, Any]:
        _, answer = await self.request("GET", "/healthz")
        return answer


def _quote(value: str) -> str:
    return urllib.parse.quote(value, safe="")


#: Where the trainer adapters find their services; the launcher sets it to the node-local service.
DEFAULT_SERVICE_URL = "http://127.0.0.1:8700"


class ServicePool:
    """Several services. An episode is routed by a key and stays on its service."""

    def __init__(self, urls: Sequence[str], **client_options: Any):
        if not urls:
            raise ValueError("ServicePool needs at least one service URL")
        self.clients = [ServiceClient(url, **client_options) for url in urls]

    @classmethod
    def from_env(cls, environ: Optional[Mapping[str, str]] = None) -> "ServicePool":
        """The pool the adapters use: `PROGAGENT_ROLLOUT_URLS` (comma-separated; default the node-local
        service), `PROGAGENT_AUTH_TOKEN`, `PROGAGENT_REQUEST_TIMEOUT` (seconds per request)."""
        environ = os.environ if environ is None else environ
        urls = [url.strip() for url in environ.get("PROGAGENT_ROLLOUT_URLS", DEFAULT_SERVICE_URL).split(",")]
        options: Dict[str, Any] = {"auth_token": environ.get("PROGAGENT_AUTH_TOKEN") or None}
        if environ.get("PROGAGENT_REQUEST_TIMEOUT"):
            options["timeout_s"] = float(environ["PROGAGENT_REQUEST_TIMEOUT"])
        return cls([url for url in urls if url], **options)

    def pick(self, key: str) -> ServiceClient:
        """The same key always picks the same service (crc32, stable across processes)."""
        return self.clients[zlib.crc32(key.encode("utf-8")) % len(self.clients)]

    async def close(self) -> None:
        await asyncio.gather(*(client.close() for client in self.clients))
