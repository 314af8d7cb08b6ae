"""Two GRPO steps of the tiny model against `baton env serve`, through `baton_env.environment_class`.

    python grpo.py MODEL_DIR SERVER_URL OUT_DIR [STEPS]

One generation of 8 rollouts (two tasks × 4) feeds two optimizer steps of 4: more rollouts than
one batch, and TRL makes 8 environment instances (8 WebSocket sessions). The reward is the
server's, through `get_reward()`; each rollout's reward and the episode's end are printed.
"""

from __future__ import annotations

import json
import statistics
import sys

from datasets import Dataset
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import GRPOConfig, GRPOTrainer

from baton_env import build_dataset, environment_class

# Two train tasks whose episodes, ended at once, score differently under r2: a cancellation the
# customer asks for (0: nothing done, nothing due) and a due hand-off (-1: missed). A tiny random
# model makes no tool call a parser accepts, so the reward varies between the two prompts.
TASKS = ["billing_006", "billing_009"]


def main(model_dir: str, url: str, out: str, steps: int) -> None:
    Env = environment_class(url)
    dataset = Dataset.from_list(build_dataset(url, tasks=TASKS))
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    args = GRPOConfig(
        output_dir=out,
        max_steps=steps,
        per_device_train_batch_size=4,
        num_generations=4,
        steps_per_generation=2,
        max_completion_length=32,
        max_tool_calling_iterations=3,
        learning_rate=1e-4,
        beta=0.0,
        temperature=1.0,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        shuffle_dataset=False,
        seed=1,
    )
    instances: list = []

    def factory():
        env = Env()
        instances.append(env)
        return env

    trainer = GRPOTrainer(
        model=AutoModelForCausalLM.from_pretrained(model_dir),
        args=args,
        train_dataset=dataset,
        processing_class=tokenizer,
        environment_factory=factory,
    )
    trainer.train()
    logs = [e for e in trainer.state.log_history if "loss" in e]
    rewards = [e.get(f"rewards/{Env.__name__}/mean") for e in logs]
    stds = [e.get("reward_std") for e in logs]
    ends = [
        (i.last_result or {}).get("observation", {}).get("termination") for i in instances if i.last_result is not None
    ]
    first = logs[0] if logs else {}
    summary = {
        "grpo_steps": trainer.state.global_step,
        "environments": len(instances),
        "loss_per_step": [e.get("loss") for e in logs],
        "reward_mean_per_step": rewards,
        "reward_std_per_step": stds,
        # Of the generation: groups (same prompt) whose reward did not vary, and tool calls per completion.
        "frac_reward_zero_std": first.get("frac_reward_zero_std"),
        "tool_call_frequency": first.get("tools/call_frequency"),
        "episode_ends": {t: ends.count(t) for t in sorted(set(map(str, ends)))},
        "last_rewards": [i.get_reward() for i in instances],
    }
    summary["reward_varies"] = len(set(summary["last_rewards"])) > 1
    summary["reward_mean_of_last"] = statistics.fmean(r for r in summary["last_rewards"] if r is not None)
    print(json.dumps(summary))
    for env in instances:
        env.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 2)
