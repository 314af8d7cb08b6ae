"""OpenEnv's own clients against `baton env serve` (pip install openenv-core).

    npx baton env serve --domain billing --reward r2 --port 8000 &
    python python/examples/openenv_client.py http://127.0.0.1:8000

1. `GenericEnvClient` (OpenEnv's simulation mode, over the WebSocket /ws): reset, a tool call,
   a reply, the state, and the `end` action, which scores the episode.
2. `MCPToolClient` as it comes (over /ws, its list_tools / call_tool actions as steps): reset,
   the tools, a call, and `end`.
3. `MCPToolClient` in production mode (HTTP /mcp): `openenv/session/create` opens a session (and
   resets its episode), `tools/list` lists the domain's tools, `tools/call` steps it.
"""

from __future__ import annotations

import asyncio
import sys

from openenv.core import GenericEnvClient, MCPToolClient


def simulation(url: str) -> None:
    with GenericEnvClient(base_url=url).sync() as env:
        first = env.reset(task="billing_008")
        print("reset:", first.observation["task"], "| customer:", first.observation["customer_message"][:70])
        print("tools:", ", ".join(t["function"]["name"] for t in first.observation["tools"]))
        listed = env.step({"type": "tool_call", "name": "list_plans", "arguments": {}})
        print("list_plans ->", listed.observation["tool_result"]["content"][:70])
        answer = env.step({"type": "message", "content": "Happy to help. What is the e-mail on your account?"})
        print("customer ->", answer.observation["customer_message"][:70])
        print("state:", env.state())
        end = env.step({"type": "end"})
        print("end: done", end.done, "reward", end.reward, "termination", end.observation["termination"])


async def mcp_over_ws(url: str) -> None:
    async with MCPToolClient(base_url=url) as env:
        await env.reset(task="billing_020")
        tools = await env.list_tools()
        print("MCP (ws) tools:", len(tools), "| first:", tools[0].name, sorted(tools[0].input_schema.get("properties", {})))
        result = await env.call_tool("list_plans")
        print("MCP (ws) list_plans ->", result["content"][0]["text"][:70])
        ended = await env.call_tool("end", message="Thanks for contacting us. Goodbye!")
        print("MCP (ws) end -> done", ended["structuredContent"]["done"], "reward", ended["structuredContent"]["reward"])


async def production(url: str) -> None:
    client = MCPToolClient(base_url=url)
    client.use_production_mode = True  # HTTP /mcp with a session, as OpenEnv's production mode
    try:
        tools = await client.list_tools()
        print("MCP tools:", ", ".join(t.name for t in tools))
        result = await client.call_tool("list_plans")
        print("MCP list_plans ->", result["content"][0]["text"][:70])
        ended = await client.call_tool("end")
        print("MCP end -> done", ended["structuredContent"]["done"], "reward", ended["structuredContent"]["reward"])
    finally:
        await client.close()


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    simulation(target)
    asyncio.run(mcp_over_ws(target))
    asyncio.run(production(target))
