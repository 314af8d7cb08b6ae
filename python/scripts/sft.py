"""SFT of the tiny model on `baton export sft` output: a few steps, loss on the assistant's turns only.

    python sft.py MODEL_DIR SFT.jsonl OUT_DIR [STEPS]
"""

from __future__ import annotations

import json
import sys

from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import SFTConfig, SFTTrainer


def main(model_dir: str, data: str, out: str, steps: int) -> None:
    dataset = load_dataset("json", data_files=data, split="train").remove_columns(["metadata"])
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    # Every dialogue whole: the longest, in this tokenizer's tokens (the export's max_length is in estimated tokens).
    longest = max(
        len(tokenizer.apply_chat_template(row["messages"], tools=row["tools"], tokenize=True, return_dict=True)["input_ids"])
        for row in dataset
    )
    args = SFTConfig(
        output_dir=out,
        max_steps=steps,
        per_device_train_batch_size=1,
        learning_rate=1e-3,
        assistant_only_loss=True,
        max_length=longest,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        dataloader_num_workers=0,
    )
    trainer = SFTTrainer(
        model=AutoModelForCausalLM.from_pretrained(model_dir), args=args, train_dataset=dataset, processing_class=tokenizer
    )
    # What assistant-only loss trains on: the share of tokens with a label (not -100), in the first example.
    first = trainer.train_dataset[0]
    labels = first["labels"]
    result = trainer.train()
    losses = [round(e["loss"], 4) for e in trainer.state.log_history if "loss" in e]
    print(
        json.dumps(
            {
                "sft_rows": len(dataset),
                "longest_tokens": longest,
                "steps": trainer.state.global_step,
                "losses": losses,
                "train_loss": round(result.training_loss, 4),
                "trained_token_share_of_first_row": round(sum(1 for t in labels if t != -100) / len(labels), 3),
            }
        )
    )
    trainer.save_model(out)
    tokenizer.save_pretrained(out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 5)
