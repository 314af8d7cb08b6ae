"""The WebSocket client against a real `baton env serve`."""

from __future__ import annotations

import pytest

from baton_env import ActionError, BatonEnvClient, BatonEnvError, SessionCapacityError, list_tools
from baton_env.client import http_url, ws_url


def test_urls_are_read_in_every_form():
    assert ws_url("http://127.0.0.1:8000") == "ws://127.0.0.1:8000/ws"
    assert ws_url("ws://127.0.0.1:8000/ws/") == "ws://127.0.0.1:8000/ws"
    assert http_url("wss://h:1/ws") == "https://h:1"


def test_reset_step_state_and_refusals(server):
    client = BatonEnvClient(server.url)
    try:
        first = client.reset(task="billing_008")
        assert first["done"] is False and first["reward"] is None
        assert first["observation"]["task"] == "billing/billing_008#neutral#0"
        assert "Kestrel" in first["observation"]["policy"]
        with pytest.raises(ActionError, match="invalid action"):
            client.step({"type": "message", "content": ""})
        assert client.state()["step_count"] == 0
        listed = client.step({"type": "tool_call", "name": "list_plans", "arguments": {}})
        assert listed["observation"]["tool_result"]["name"] == "list_plans"
        # MCP in the same session: an unknown tool is a JSON-RPC error, and no step.
        with pytest.raises(ActionError, match="unknown tool"):
            client.call_tool("give_refund", {})
        assert client.state()["step_count"] == 1
        ended = client.step({"type": "end"})
        assert ended["done"] is True and ended["observation"]["termination"] == "agent_stop"
        with pytest.raises(BatonEnvError, match="over"):
            client.step({"type": "end"})
    finally:
        client.close()


def test_the_capacity_error_names_the_flag(server):
    a, b, c = BatonEnvClient(server.url), BatonEnvClient(server.url), BatonEnvClient(server.url)
    try:
        a.reset(seed=0)
        b.reset(seed=1)
        with pytest.raises(SessionCapacityError, match="--max-sessions"):
            c.reset(seed=2)
    finally:
        for client in (a, b, c):
            client.close()


def test_tools_are_listed_without_a_session(server):
    names = [t["name"] for t in list_tools(server.url)]
    assert names[-2:] == ["reply_to_customer", "end"]
    assert {"refund_charge", "change_plan", "handoff"} <= set(names)
