"""Python side of Baton's environment server (`baton env serve`): a client, and TRL's environment.

- `BatonEnvClient`: one WebSocket session (OpenEnv's reset/step/state, MCP's tools/call).
- `environment_class(url)`: the class to pass as GRPO's ``environment_factory``.
- `build_dataset(url)`: the prompts, with the policy as the system turn.

OpenEnv's own clients (``openenv.core.GenericEnvClient``, MCP clients) work against the server
as they are; see ``python/examples/openenv_client.py``.
"""

from .client import (
    ActionError,
    BatonEnvClient,
    BatonEnvError,
    EpisodeLostError,
    SessionCapacityError,
    SessionTimeoutError,
    list_tools,
)
from .trl import BatonEnv, build_dataset, environment_class, python_type

__all__ = [
    "ActionError",
    "BatonEnv",
    "BatonEnvClient",
    "BatonEnvError",
    "EpisodeLostError",
    "SessionCapacityError",
    "SessionTimeoutError",
    "build_dataset",
    "environment_class",
    "list_tools",
    "python_type",
]
