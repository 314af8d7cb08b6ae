"""Baton's environment for TRL's GRPO (``GRPOTrainer(environment_factory=...)``).

``environment_class(url)`` reads the agent's tools from the server (MCP ``tools/list``) and
builds a class with one method per tool — each domain tool with its own typed arguments, the
hand-off, ``reply_to_customer`` and ``end`` — which TRL offers the model as tools. Each call is
one step of the episode, over the instance's WebSocket session. ``reset(task=…)`` starts an
episode (reconnecting first if the socket dropped or the server closed it while the instance sat
in TRL's pool) and returns the customer's first message; ``get_reward()`` ends the episode if the
model stopped before it was over (the ``end`` action) and returns the server's reward.

``build_dataset(url)`` gives TRL's prompts: the domain's policy as the system turn, one row per
task, with the ``task`` column that ``reset`` receives.
"""

from __future__ import annotations

import functools
import inspect
import keyword
import re
import warnings
from typing import Any, Literal, Optional, Union

from .client import (
    BatonEnvClient,
    BatonEnvError,
    EpisodeLostError,
    SessionCapacityError,
    SessionTimeoutError,
    get_json,
    list_tools,
    post_json,
)

_SIMPLE_TYPES: dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict}


def python_type(schema: dict[str, Any]) -> Any:
    """The Python type hint for a JSON Schema (what transformers turns back into the same schema)."""
    if "enum" in schema and schema["enum"]:
        return Literal[tuple(schema["enum"])]  # type: ignore[return-value]
    if "const" in schema:
        return Literal[(schema["const"],)]  # type: ignore[return-value]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [python_type(s) for s in schema[key] if s.get("type") != "null"]
            nullable = any(s.get("type") == "null" for s in schema[key])
            hint = options[0] if len(options) == 1 else Union[tuple(options)]  # type: ignore[valid-type]
            return Optional[hint] if nullable else hint
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        hints = [python_type({**schema, "type": k}) for k in kinds]
        hint = hints[0] if len(hints) == 1 else Union[tuple(hints)]  # type: ignore[valid-type]
        return Optional[hint] if "null" in kind else hint
    if kind == "array":
        return list[python_type(schema.get("items") or {})]  # type: ignore[misc]
    if kind in _SIMPLE_TYPES:
        return _SIMPLE_TYPES[kind]
    return str


def _one_line(text: str) -> str:
    # A description on one line, without a trailing "(choices: …)" that transformers would read as an enum.
    return re.sub(r"\s+", " ", text).strip().rstrip(".") or "see the tool's description"


def _tool_method(tool: dict[str, Any]):
    name = tool["name"]
    if not name.isidentifier() or keyword.iskeyword(name):
        raise ValueError(f"the tool {name!r} is not a Python identifier, so it cannot be a method")
    schema = tool.get("inputSchema") or {}
    properties: dict[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    docs = []
    # Required arguments first: Python wants them before the ones with defaults.
    for arg in sorted(properties, key=lambda a: a not in required):
        if not arg.isidentifier() or keyword.iskeyword(arg):
            raise ValueError(f"the argument {arg!r} of {name} is not a Python identifier")
        hint = python_type(properties[arg])
        if arg in required:
            params.append(inspect.Parameter(arg, inspect.Parameter.KEYWORD_ONLY, annotation=hint))
        else:
            hint = Optional[hint]
            params.append(inspect.Parameter(arg, inspect.Parameter.KEYWORD_ONLY, annotation=hint, default=None))
        annotations[arg] = hint
        docs.append(f"    {arg}: {_one_line(str(properties[arg].get('description') or f'the {arg}'))}")
    annotations["return"] = str

    def method(self: BatonEnv, **arguments: Any) -> str:
        return self._call(name, {k: v for k, v in arguments.items() if v is not None})

    method.__name__ = name
    method.__qualname__ = f"BatonEnv.{name}"
    method.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    method.__annotations__ = annotations
    description = _one_line(tool.get("description") or name)
    method.__doc__ = (
        f"{description}.\n\n"
        + ("Args:\n" + "\n".join(docs) + "\n\n" if docs else "")
        + "Returns:\n    What comes back: the tool's result, or the customer's answer."
    )
    return method


class _NotATool:
    """``close`` as a method TRL does not offer the model (TRL offers every public *method*)."""

    def __get__(self, instance: Any, owner: Any = None):
        if instance is None:
            return self
        return functools.partial(BatonEnv._close, instance)


class BatonEnv:
    """An episode of a Baton domain per rollout. Make the class with `environment_class`."""

    url: str = ""

    def __init__(self) -> None:
        if not self.url:
            raise TypeError("make the environment class with baton_env.environment_class(url)")
        self._client = BatonEnvClient(self.url)
        self._reward: float | None = None
        self._done = False
        self._lost = False
        self.last_result: dict[str, Any] | None = None

    # --- what TRL calls ---------------------------------------------------------------------

    def reset(self, task: str | None = None, seed: int | None = None, **_columns: Any) -> str:
        """Starts an episode of ``task`` (a plan key or task id, e.g. from `build_dataset`), else ``seed``, else the next."""
        self._reward = None
        self._done = False
        self._lost = False
        self.last_result = None
        try:
            result = self._client.reset(task=task, seed=seed)
        except (SessionTimeoutError, EpisodeLostError):
            # The server closed the session while the instance waited in TRL's pool, or the socket
            # dropped: a new session, and the reset again.
            self._client.connect()
            result = self._client.reset(task=task, seed=seed)
        self.last_result = result
        observation = result["observation"]
        if result["done"]:
            self._done = True
            self._reward = float(result["reward"] or 0.0)
            said = observation.get("customer_message") or ""
            return f"{said}\n\n(This conversation was handed to a person before your first turn: {observation.get('why_over', 'it is over')}.)"
        return observation.get("customer_message") or ""

    def get_reward(self) -> float | None:
        """The episode's reward from the server; an episode still going is ended first (``end``).

        ``None`` when the episode was lost to a dropped connection: TRL ignores that rollout
        rather than scoring the server's failure as the model's.
        """
        if self._lost:
            return None
        if not self._done:
            try:
                self._finish(self._client.step({"type": "end"}))
            except (EpisodeLostError, SessionTimeoutError) as error:
                warnings.warn(f"baton_env: the episode was lost before it was scored ({error})", stacklevel=2)
                self._lost = True
                return None
        return self._reward

    # --- the tools' plumbing ---------------------------------------------------------------

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        if self._lost:
            raise EpisodeLostError("the connection to the environment was lost: this conversation cannot go on")
        if self._done:
            raise BatonEnvError("The conversation is over: there is nothing more to do.")
        try:
            answer = self._client.call_tool(name, arguments)
        except (EpisodeLostError, SessionTimeoutError):
            self._lost = True
            raise
        text = "\n".join(part.get("text", "") for part in answer.get("content", []) if part.get("type") == "text")
        if answer.get("isError"):
            raise BatonEnvError(text)
        result = answer.get("structuredContent") or {}
        self.last_result = result
        if result.get("done"):
            self._finish(result)
        return text

    def _finish(self, result: dict[str, Any]) -> None:
        self.last_result = result
        self._done = True
        self._reward = float(result["reward"] or 0.0)

    def _close(self) -> None:
        self._client.close()

    close = _NotATool()

    def __del__(self) -> None:
        try:
            self._client.disconnect()
        except Exception:  # noqa: BLE001 — interpreter shutdown
            pass


def environment_class(url: str, name: str = "BatonEnv") -> type[BatonEnv]:
    """A `BatonEnv` subclass for the server at ``url``, with one method per tool it lists.

    Raises `SessionCapacityError` later, at a reset, when TRL makes more instances than the server's
    ``--max-sessions`` (TRL makes one per rollout of a generation batch).
    """
    members: dict[str, Any] = {"url": url}
    for tool in list_tools(url):
        if tool["name"] in ("reset", "get_reward", "close") or hasattr(BatonEnv, tool["name"]):
            raise ValueError(f"the server's tool {tool['name']!r} would shadow a method of the environment")
        members[tool["name"]] = _tool_method(tool)
    return type(name, (BatonEnv,), members)


def build_dataset(url: str, tasks: list[str] | None = None, repeats: int = 1, prompt: str = "") -> list[dict[str, Any]]:
    """TRL prompts for the server's tasks: the policy (the agent's system prompt) as the system turn.

    Each row is ``{"prompt": [system, user], "task": key}``; TRL appends what ``reset`` returns
    (the customer's first message) to the user turn, after ``prompt``. ``tasks`` defaults to
    every task the server's ``/metadata`` lists. Turn it into a dataset with
    ``datasets.Dataset.from_list``.
    """
    keys = tasks if tasks is not None else list(get_json(url, "/metadata")["tasks"])
    rows = []
    for key in keys:
        # A stateless HTTP reset: the episode's first observation, with the system prompt of its task.
        first = post_json(url, "/reset", {"task": key})
        policy = first["observation"]["policy"]
        for _ in range(repeats):
            rows.append(
                {"prompt": [{"role": "system", "content": policy}, {"role": "user", "content": prompt}], "task": key}
            )
    return rows


__all__ = ["BatonEnv", "build_dataset", "environment_class", "python_type", "SessionCapacityError", "SessionTimeoutError"]
