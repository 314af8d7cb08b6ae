"""Loads a `baton export dataset` folder with Hugging Face `datasets`, every configuration and split.

    python load_dataset.py DIR

For each configuration the card's YAML header lists, `load_dataset(DIR, name=config)` must give
every split of its `data_files` with as many rows as the split's file has lines (and as the card's
`num_examples` says: `datasets` checks that itself), and every column `datasets` typed, nested ones
by path, must be named in the card's field table for that configuration. Prints one JSON line of
row counts; exits non-zero, saying why, otherwise.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml
from datasets import load_dataset


def fail(message: str) -> None:
    print(f"load_dataset.py: {message}", file=sys.stderr)
    sys.exit(1)


def card_parts(folder: Path) -> tuple[dict, str]:
    text = (folder / "README.md").read_text(encoding="utf-8")
    match = re.match(r"^---\n(.*?)\n---\n(.*)$", text, re.S)
    if not match:
        fail("README.md has no YAML header")
    return yaml.safe_load(match.group(1)), match.group(2)


def card_fields(body: str, config: str) -> set[str]:
    section = body.split(f"\n### {config}\n", 1)[1] if f"\n### {config}\n" in body else ""
    section = re.split(r"\n##+ ", section, maxsplit=1)[0]
    return set(re.findall(r"^\| `([^`]+)` \|", section, re.M))


def feature_paths(features, prefix: str = "") -> list[str]:
    """Column paths as the card writes them: `label.due_turn`, `messages[].tool_calls[].name`."""
    paths = []
    for name, feature in features.items():
        path = f"{prefix}{name}"
        paths.append(path)
        paths.extend(nested_paths(feature, path))
    return paths


def nested_paths(feature, path: str) -> list[str]:
    if isinstance(feature, dict):
        return feature_paths(feature, f"{path}.")
    inner = getattr(feature, "feature", None)  # List, LargeList, Sequence
    if inner is not None:
        return nested_paths(inner, f"{path}[]")
    return []


def main(folder: Path) -> None:
    header, body = card_parts(folder)
    infos = {info["config_name"]: info for info in header.get("dataset_info", [])}
    counts: dict[str, dict[str, int]] = {}
    for config in header["configs"]:
        name = config["config_name"]
        loaded = load_dataset(str(folder), name=name)
        declared = {f["split"]: f["path"] for f in config["data_files"]}
        if sorted(loaded.keys()) != sorted(declared):
            fail(f"{name}: loaded splits {sorted(loaded.keys())}, the card declares {sorted(declared)}")
        described = card_fields(body, name)
        for split, path in declared.items():
            lines = sum(1 for line in (folder / path).read_text(encoding="utf-8").splitlines() if line.strip())
            rows = loaded[split].num_rows
            expected = {s["name"]: s["num_examples"] for s in infos.get(name, {}).get("splits", [])}.get(split)
            if rows != lines or rows != expected:
                fail(f"{name}/{split}: {rows} rows loaded, {lines} lines in {path}, {expected} in the card")
            missing = [p for p in feature_paths(loaded[split].features) if p not in described]
            if missing:
                fail(f"{name}/{split}: columns the card does not describe: {missing}")
            counts.setdefault(name, {})[split] = rows
    print(json.dumps({"configs": counts}))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        fail("usage: python load_dataset.py DIR")
    main(Path(sys.argv[1]))
