"""TRL's environment class against a real `baton env serve`."""

from __future__ import annotations

import inspect
import json

import pytest
from transformers.utils import get_json_schema

from baton_env import BatonEnvError, SessionTimeoutError, build_dataset, environment_class, list_tools

MARKERS = ("###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###")


def tool_methods(env) -> dict:
    """What TRL offers the model: the public methods but reset and get_reward (as GRPOTrainer picks them)."""
    return {
        name: member
        for name, member in inspect.getmembers(env, predicate=inspect.ismethod)
        if name not in ("reset", "get_reward") and not name.startswith("_")
    }


def test_one_typed_method_per_tool_from_the_servers_schema(server):
    Env = environment_class(server.url)
    env = Env()
    try:
        methods = tool_methods(env)
        tools = {t["name"]: t for t in list_tools(server.url)}
        # close is not a tool the model can call.
        assert set(methods) == set(tools)
        for name, tool in tools.items():
            schema = get_json_schema(methods[name])["function"]
            assert schema["name"] == name
            expected = tool["inputSchema"]
            assert set(schema["parameters"]["properties"]) == set(expected.get("properties", {}))
            assert set(schema["parameters"].get("required", [])) == set(expected.get("required", []))
            for arg, spec in expected.get("properties", {}).items():
                got = schema["parameters"]["properties"][arg]
                if "enum" in spec:
                    assert got["enum"] == spec["enum"], (name, arg)
                elif "type" in spec:
                    assert got["type"] == spec["type"], (name, arg, got)
        refund = get_json_schema(methods["refund_charge"])["function"]["parameters"]["properties"]
        assert all(p.get("type") for p in refund.values())
        handoff = get_json_schema(methods["handoff"])["function"]["parameters"]
        assert "reason" in handoff["required"] and "enum" in handoff["properties"]["reason"]
    finally:
        env.close()


def test_the_dataset_puts_the_policy_in_the_system_turn(server):
    rows = build_dataset(server.url, tasks=["billing_008", "billing_020"], repeats=2)
    assert [r["task"] for r in rows] == ["billing_008", "billing_008", "billing_020", "billing_020"]
    assert rows[0]["prompt"][0]["role"] == "system" and "Kestrel" in rows[0]["prompt"][0]["content"]
    assert rows[0]["prompt"][1]["role"] == "user"
    every = build_dataset(server.url)
    assert len(every) > 10 and all(r["task"].startswith("billing/") for r in every)


def test_an_episode_through_tool_methods_scored_by_get_reward(server):
    env = environment_class(server.url)()
    try:
        opening = env.reset(task="billing_008", prompt=[{"role": "user", "content": ""}])
        assert isinstance(opening, str) and len(opening) > 10
        plans = env.list_plans()
        assert "plan" in plans.lower()
        answer = env.reply_to_customer(message="Could you tell me the e-mail address on your account?")
        assert isinstance(answer, str) and answer
        for text in (opening, plans, answer):
            assert not any(m in text for m in MARKERS)
        # The model stopped calling tools before the end: get_reward ends the episode and scores it.
        reward = env.get_reward()
        assert reward == 0.0
        assert env.last_result["observation"]["termination"] == "agent_stop"
        with pytest.raises(BatonEnvError, match="over"):
            env.list_plans()
    finally:
        env.close()


def test_reward_is_cleared_on_reset_for_a_pooled_instance(handoff_server):
    env = environment_class(handoff_server.url)()
    try:
        # Over at reset: the customer's opening asked for a person; the decider's hand-off is due.
        text = env.reset(task="billing/billing_003/ask_human_direct#neutral#0")
        assert "handed to a person" in text and not any(m in text for m in MARKERS)
        assert env.get_reward() == 1.0
        # The same instance, the next rollout: the reward is this episode's, not the last one's.
        env.reset(task="billing/billing_003/frustrated_in_scope#neutral#0")
        assert env._reward is None
        assert env.get_reward() == 0.0
    finally:
        env.close()


def test_reconnects_after_the_server_closed_an_idle_session_or_the_socket_dropped(idle_server):
    env = environment_class(idle_server.url)()
    try:
        env.reset(seed=0)
        # Wait for the server's idle close (its error frame is the event), as between two GRPO steps.
        frame = json.loads(env._client._socket.recv(timeout=30))
        assert frame["data"]["reason"] == "idle_timeout" and "--idle-timeout-s" in frame["data"]["message"]
        # Mid-episode, the loss is an error naming the flag, and the rollout is not scored.
        with pytest.raises(SessionTimeoutError, match="--idle-timeout-s"):
            env.list_plans()
        assert env.get_reward() is None
        # The next reset reconnects.
        assert env.reset(seed=1)
        assert "plan" in env.list_plans().lower()
        # A socket dropped by the network: the next reset reconnects too.
        env._client._socket.close()
        assert env.reset(seed=2)
        assert env.get_reward() == 0.0
    finally:
        env.close()
