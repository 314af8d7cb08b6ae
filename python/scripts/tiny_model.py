"""Builds a tiny Qwen2-shaped model and its tokenizer locally (no download).

The tokenizer is a byte-level BPE trained on the SFT file itself, with Qwen's chat tokens, and
TRL's own Qwen2.5 chat template, so TRL recognises it: it parses tool calls for GRPO and swaps in
the training template (with generation markers) for assistant-only loss.

    python tiny_model.py SFT.jsonl OUT_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM
from trl.chat_template_utils import qwen2_5_chat_template

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]


def texts(sft: Path):
    for line in sft.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        yield json.dumps(row["tools"])
        for message in row["messages"]:
            yield message.get("content") or ""
            for call in message.get("tool_calls") or []:
                yield json.dumps(call)


def main(sft: Path, out: Path) -> None:
    torch.manual_seed(0)
    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=4096, special_tokens=SPECIAL, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    core.train_from_iterator(texts(sft), trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=core, eos_token="<|im_end|>", pad_token="<|endoftext|>", additional_special_tokens=SPECIAL[1:]
    )
    tokenizer.chat_template = qwen2_5_chat_template
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=32768,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
    )
    model = Qwen2ForCausalLM(config)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    params = sum(p.numel() for p in model.parameters())
    print(json.dumps({"model": str(out), "parameters": params, "vocab": len(tokenizer), "layers": 2, "hidden": 64}))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
