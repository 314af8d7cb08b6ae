"""Starts real `baton env serve` processes (the repo's built CLI, `dist/`) for the tests."""

from __future__ import annotations

import os
import re
import subprocess
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BIN = REPO / "bin" / "baton.js"


class Server:
    def __init__(self, *args: str) -> None:
        if not (REPO / "dist" / "cli" / "main.js").exists():
            raise RuntimeError("build the CLI first: npx tsc -p tsconfig.json (in the repo)")
        self.process = subprocess.Popen(
            [os.environ.get("NODE", "node"), str(BIN), "env", "serve", "--domain", "billing", "--port", "0", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
        )
        self.url = ""
        seen: list[str] = []
        assert self.process.stderr is not None
        # The server prints its address once it listens; reading stops there (the rest is drained below).
        for line in self.process.stderr:
            seen.append(line)
            found = re.search(r"OpenEnv on (http://\S+)", line)
            if found:
                self.url = found.group(1)
                break
        if not self.url:
            raise RuntimeError(f"baton env serve did not start: {''.join(seen)}")
        threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True).start()  # type: ignore[union-attr]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture(scope="session")
def server():
    """Billing's main train tasks, the task reward (0 or 1), the oracle's checks off, two sessions at most."""
    s = Server("--tasks", "main", "--split", "train", "--reward", "task", "--checks", "off", "--max-sessions", "2")
    yield s
    s.stop()


@pytest.fixture(scope="session")
def handoff_server():
    """Billing's hand-off variants (dev split), the task reward: some are over at reset, with reward 1."""
    s = Server("--tasks", "handoff", "--split", "dev", "--reward", "task", "--max-sessions", "4")
    yield s
    s.stop()


@pytest.fixture(scope="session")
def idle_server():
    """Closes a session after one second without a message."""
    s = Server("--reward", "task", "--idle-timeout-s", "1", "--max-sessions", "4")
    yield s
    s.stop()
