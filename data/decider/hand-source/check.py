#!/usr/bin/env python3
"""Validate hand-dev.jsonl and hand-holdout.jsonl: every line parses and has the fields, roles
are customer/agent/tool, tool lines are complete, expectations match the category's reason, and
no customer message text (case- and space-normalised) appears in both files.

  check.py [NAME] [--independent]    NAME-dev.jsonl and NAME-holdout.jsonl (default: hand)

--independent: the two parts were written by different writers, blind to each other, so a short
common message ("thanks", "human please") may occur in both by chance: it is counted, not an error."""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build import REASON

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
errors = []
texts = {}
ids = set()
positional = [a for a in sys.argv[1:] if not a.startswith("--")]
INDEPENDENT = "--independent" in sys.argv
PREFIX = positional[0] if positional else "hand"
DEV, HOLDOUT = f"{PREFIX}-dev", f"{PREFIX}-holdout"
for name in (DEV, HOLDOUT):
    texts[name] = set()
    for n, line in enumerate(open(os.path.join(OUT, name + ".jsonl"), encoding="utf-8"), 1):
        where = f"{name}:{n}"
        try:
            r = json.loads(line)
        except Exception as e:
            errors.append(f"{where} does not parse: {e}"); continue
        if set(r) != {"id", "category", "expect", "conversation"}:
            errors.append(f"{where} fields {sorted(r)}")
        if r["id"] in ids: errors.append(f"{where} duplicate id")
        ids.add(r["id"])
        cat = r.get("category")
        if cat not in REASON: errors.append(f"{where} unknown category {cat}"); continue
        exp = r["expect"]
        if exp != {"handoff": REASON[cat] is not None, "reason": REASON[cat]}:
            errors.append(f"{where} expect {exp} vs category {cat}")
        conv = r["conversation"]
        if conv.get("domain") != "billing" or not conv.get("messages"):
            errors.append(f"{where} conversation")
        for m in conv["messages"]:
            role = m.get("role")
            if role in ("customer", "agent"):
                if set(m) != {"role", "text"} or not m["text"].strip():
                    errors.append(f"{where} bad {role} message {m}")
                if role == "customer":
                    texts[name].add(" ".join(m["text"].lower().split()))
            elif role == "tool":
                if set(m) != {"role", "name", "arguments", "ok", "output"} or not isinstance(m["ok"], bool) \
                        or not isinstance(m["arguments"], dict):
                    errors.append(f"{where} bad tool message {m}")
            else:
                errors.append(f"{where} role {role}")
        if not any(m["role"] == "customer" for m in conv["messages"]):
            errors.append(f"{where} no customer message")
shared = texts[DEV] & texts[HOLDOUT]
if not INDEPENDENT:
    for t in sorted(shared):
        errors.append(f"customer text in both files: {t!r}")
for e in errors:
    print("ERROR", e)
print(f"checked {len(ids)} lines; {len(shared)} customer texts shared between files; {len(errors)} errors")
sys.exit(1 if errors else 0)
