"""A synchronous client of Baton's environment server (`baton env serve`).

One `BatonEnvClient` is one WebSocket session at ``/ws``: OpenEnv's ``reset`` / ``step`` /
``state`` messages and MCP's ``tools/call`` in ``mcp`` messages, one answer per request, in
order. The server's errors become exceptions that say what to do, and which `baton env serve`
flag to change when a limit of the server was hit.
"""

from __future__ import annotations

import itertools
import json
import urllib.error
import urllib.request
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


class BatonEnvError(RuntimeError):
    """An error the environment server answered with (its ``code`` and the whole ``data``)."""

    def __init__(self, message: str, code: str = "EXECUTION_ERROR", data: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.data = data or {}


class SessionCapacityError(BatonEnvError):
    """The server already holds ``--max-sessions`` sessions."""


class SessionTimeoutError(BatonEnvError):
    """The server closed the session after ``--idle-timeout-s`` without a message."""


class EpisodeLostError(BatonEnvError):
    """The connection dropped during an episode: the episode is gone (the next reset reconnects)."""


class ActionError(BatonEnvError):
    """The server refused a message or an action (it changed nothing)."""


def ws_url(url: str) -> str:
    """``http://host:port`` (or ``ws://…``, with or without ``/ws``) as the session's WebSocket URL."""
    base = url.rstrip("/")
    if base.startswith("http://"):
        base = "ws://" + base[len("http://") :]
    elif base.startswith("https://"):
        base = "wss://" + base[len("https://") :]
    return base if base.endswith("/ws") else base + "/ws"


def http_url(url: str) -> str:
    """The server's HTTP base URL from any of the forms `ws_url` takes."""
    base = url.rstrip("/")
    if base.endswith("/ws"):
        base = base[: -len("/ws")]
    if base.startswith("ws://"):
        base = "http://" + base[len("ws://") :]
    elif base.startswith("wss://"):
        base = "https://" + base[len("wss://") :]
    return base


def get_json(url: str, path: str, timeout: float = 30.0) -> Any:
    with urllib.request.urlopen(http_url(url) + path, timeout=timeout) as response:
        return json.load(response)


def post_json(url: str, path: str, body: Any, timeout: float = 60.0) -> Any:
    request = urllib.request.Request(
        http_url(url) + path,
        data=json.dumps(body).encode("utf-8"),
        headers={"content-type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        detail = error.read().decode("utf-8", "replace")[:500]
        raise BatonEnvError(f"POST {path}: HTTP {error.code}: {detail}", code=f"HTTP_{error.code}") from error


def list_tools(url: str, timeout: float = 30.0) -> list[dict[str, Any]]:
    """The agent's tools as MCP lists them (HTTP ``/mcp`` ``tools/list``; no session needed)."""
    answer = post_json(url, "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}, timeout)
    if "error" in answer:
        raise BatonEnvError(f"tools/list failed: {answer['error'].get('message')}")
    return answer["result"]["tools"]


def _error_of(data: dict[str, Any]) -> BatonEnvError:
    code = str(data.get("code", "EXECUTION_ERROR"))
    message = str(data.get("message", "the environment server answered with an error"))
    if code == "CAPACITY_REACHED":
        if "--max-sessions" not in message:
            message += ": start baton env serve with a higher --max-sessions"
        return SessionCapacityError(message, code, data)
    if code == "SESSION_ERROR" and data.get("reason") == "idle_timeout":
        if "--idle-timeout-s" not in message:
            message += ": start baton env serve with a longer --idle-timeout-s"
        return SessionTimeoutError(message, code, data)
    if code in ("VALIDATION_ERROR", "INVALID_JSON", "UNKNOWN_TYPE"):
        return ActionError(message, code, data)
    return BatonEnvError(message, code, data)


class BatonEnvClient:
    """One WebSocket session with the environment server."""

    def __init__(self, url: str, *, timeout: float = 300.0, open_timeout: float = 30.0):
        self.url = ws_url(url)
        self.timeout = timeout
        self.open_timeout = open_timeout
        self._socket: ClientConnection | None = None
        self._ids = itertools.count(1)

    @property
    def connected(self) -> bool:
        return self._socket is not None

    def connect(self) -> None:
        """Opens the session (again, after a drop); the server's session is new, with no episode."""
        self.disconnect()
        # Entered as a context manager (closed by `disconnect`): websockets' non-legacy way, in every version.
        self._socket = connect(self.url, open_timeout=self.open_timeout, max_size=100 * 1024 * 1024).__enter__()

    def disconnect(self) -> None:
        socket, self._socket = self._socket, None
        if socket is not None:
            try:
                socket.close()
            except Exception:  # noqa: BLE001 — a socket that is already gone is closed
                pass

    def _request(self, message: dict[str, Any]) -> dict[str, Any]:
        if self._socket is None:
            self.connect()
        socket = self._socket
        assert socket is not None
        try:
            socket.send(json.dumps(message))
            frame = json.loads(socket.recv(timeout=self.timeout))
        except TimeoutError as error:
            self.disconnect()
            raise EpisodeLostError(
                f"no answer from the environment server in {self.timeout} s: the session is dropped "
                "(a longer timeout= here, or a faster user simulator)",
                "TIMEOUT",
            ) from error
        except ConnectionClosed as error:
            # The server may have said why before it closed (capacity, idle timeout): that is the error.
            self._socket = None
            raise self._closed_error(socket, error) from error
        if frame.get("type") == "error":
            error = _error_of(frame.get("data") or {})
            if isinstance(error, (SessionCapacityError, SessionTimeoutError)):
                self.disconnect()
            raise error
        return frame

    @staticmethod
    def _closed_error(socket: ClientConnection, error: ConnectionClosed) -> BatonEnvError:
        # Frames the server sent before closing are still readable.
        try:
            while True:
                frame = json.loads(socket.recv(timeout=0))
                if frame.get("type") == "error":
                    return _error_of(frame.get("data") or {})
        except Exception:  # noqa: BLE001 — nothing more to read
            pass
        code = error.rcvd.code if error.rcvd is not None else None
        if error.rcvd is not None and error.rcvd.reason == "idle_timeout":
            return SessionTimeoutError(
                "the server closed the session after --idle-timeout-s without a message: start baton env serve "
                "with a longer --idle-timeout-s",
                "SESSION_ERROR",
                {"reason": "idle_timeout"},
            )
        if code == 1013:
            return SessionCapacityError(
                "the server is at capacity: start baton env serve with a higher --max-sessions", "CAPACITY_REACHED"
            )
        return EpisodeLostError(f"the connection to the environment server closed (code {code})", "SESSION_ERROR")

    def reset(self, **data: Any) -> dict[str, Any]:
        """Starts an episode (``task=`` a plan key or task id, or ``seed=``): ``{observation, reward, done}``."""
        payload = {k: v for k, v in data.items() if v is not None}
        return self._request({"type": "reset", "data": payload})["data"]

    def step(self, action: dict[str, Any]) -> dict[str, Any]:
        """One action (``{"type": "message" | "tool_call" | "end", …}``): ``{observation, reward, done}``."""
        return self._request({"type": "step", "data": action})["data"]

    def state(self) -> dict[str, Any]:
        return self._request({"type": "state"})["data"]

    def mcp(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """One MCP (JSON-RPC 2.0) request in this session: its result, or `ActionError` for a JSON-RPC error."""
        frame = self._request(
            {"type": "mcp", "data": {"jsonrpc": "2.0", "id": next(self._ids), "method": method, "params": params or {}}}
        )
        answer = frame["data"]
        if "error" in answer:
            raise ActionError(str(answer["error"].get("message")), "JSONRPC_ERROR", answer["error"])
        return answer["result"]

    def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """``tools/call``: one step. Returns the MCP result (``content``, ``structuredContent``, ``isError``)."""
        return self.mcp("tools/call", {"name": name, "arguments": arguments})

    def close(self) -> None:
        """Ends the session (the server closes the episode in progress)."""
        socket, self._socket = self._socket, None
        if socket is None:
            return
        try:
            socket.send(json.dumps({"type": "close"}))
        except Exception:  # noqa: BLE001 — already gone
            pass
        try:
            socket.close()
        except Exception:  # noqa: BLE001
            pass
