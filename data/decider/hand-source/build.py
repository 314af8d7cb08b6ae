#!/usr/bin/env python3
"""Assemble the hand-written decider cases (hand-source/*.txt) into hand-dev.jsonl and
hand-holdout.jsonl, assign ids, and validate. No case is generated: every conversation is
written out in full in the .txt sources; this script only parses, numbers and checks them.

Source format: a line "@@ <category> <dev|holdout>" opens a section; cases are separated by
blank lines; each line of a case is one message:
  c> customer text
  a> agent text
  t> tool_name ~ {json arguments} ~ ok|err ~ output text
Lines starting with '#' are comments.

  build.py                                   hand-source/*.txt → hand-dev.jsonl, hand-holdout.jsonl
  build.py --name hand2 DIR [DIR ...]         DIR/*.txt → hand2-dev.jsonl, hand2-holdout.jsonl
"""
import argparse, glob, json, os, sys, collections

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)

REASON = {
    "direct_request": "customer_request", "indirect_request": "customer_request",
    "callback_request": "customer_request", "request_after_wait": "customer_request",
    "request_after_withdrawal": "customer_request",
    "self_harm": "safety", "danger": "safety", "medical_other": "safety", "safety": "safety",
    "bereavement": "policy_topic", "formal_complaint": "policy_topic", "legal": "policy_topic",
    "value_threshold": "value_threshold", "tool_failures": "tool_failures",
    "frustration_loop": "frustration_and_loop",
    "loop": "loop_detected", "loop_paraphrase": "loop_detected",
}
NEG = """neg_reported_speech neg_withdrawn neg_withdrawn_request neg_refused_transfer neg_hypothetical
neg_negation neg_negated_request neg_figurative neg_safety_hyperbole neg_word_sense
neg_people_in_passing neg_topic_mention neg_legal_neutral neg_not_complaint neg_angry_in_scope
neg_read_with_amount neg_small_refund neg_under_limit neg_tool_success neg_recovered_failures
neg_restated_once neg_loop_below_limit neg_different_intents""".split()
for n in NEG:
    REASON[n] = None


def parse_msg(line, where):
    tag, _, rest = line.partition("> ")
    rest = rest.strip()
    if tag == "c":
        return {"role": "customer", "text": rest}
    if tag == "a":
        return {"role": "agent", "text": rest}
    if tag == "t":
        parts = [p.strip() for p in rest.split(" ~ ")]
        if len(parts) != 4 or parts[2] not in ("ok", "err"):
            sys.exit(f"bad tool line at {where}: {line!r}")
        return {"role": "tool", "name": parts[0], "arguments": json.loads(parts[1]),
                "ok": parts[2] == "ok", "output": parts[3]}
    sys.exit(f"bad line at {where}: {line!r}")


def load(sources):
    cases = {"dev": [], "holdout": []}
    paths = [p for d in sources for p in sorted(glob.glob(os.path.join(d, "*.txt")))]
    if not paths:
        sys.exit(f"no .txt sources in {', '.join(sources)}")
    for path in paths:
        cat = split = None
        cur = []
        def flush():
            if cur:
                if cat is None:
                    sys.exit(f"case outside a section in {path}")
                cases[split].append((cat, list(cur)))
                cur.clear()
        for i, raw in enumerate(open(path, encoding="utf-8"), 1):
            line = raw.rstrip("\n")
            if line.startswith("#"):
                continue
            if line.startswith("@@"):
                flush()
                _, cat, split = line.split()
                if cat not in REASON or split not in cases:
                    sys.exit(f"unknown section {line!r} in {path}:{i}")
                continue
            if not line.strip():
                flush()
                continue
            cur.append(parse_msg(line, f"{os.path.basename(path)}:{i}"))
        flush()
    return cases


READ_VERBS = ("get_", "list_", "calculate_", "search_", "find_", "check_", "lookup_", "look_up_", "show_", "view_", "read_", "fetch_")


def against_contract(cat, msgs):
    """Why a case contradicts the README's contract, or None. Added by the coordinator after the
    corpus was written (the brief was ambiguous): the decider's autonomous limit applies to the
    `amount` argument of a write, so a value_threshold case needs a write tool line above 50.00;
    a customer naming a larger sum in text is the agent's to act on (its write is then checked)."""
    if cat != "value_threshold":
        return None
    for m in msgs:
        amount = m.get("arguments", {}).get("amount") if m["role"] == "tool" else None
        if isinstance(amount, (int, float)) and amount > 50 and not m["name"].startswith(READ_VERBS):
            return None
    return "value_threshold without a write above 50.00"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--name", default="hand", help="output prefix: NAME-dev.jsonl and NAME-holdout.jsonl")
    ap.add_argument("sources", nargs="*", default=[HERE], help="folders of .txt sources (default: this one)")
    opts = ap.parse_args()
    cases = load(opts.sources)
    excluded = collections.Counter()
    for split in cases:
        kept = []
        for cat, msgs in cases[split]:
            why = against_contract(cat, msgs)
            if why:
                excluded[(split, why)] += 1
            else:
                kept.append((cat, msgs))
        cases[split] = kept
    counts = {}
    for split, items in cases.items():
        name = f"{opts.name}-{split}"
        with open(os.path.join(OUT, f"{name}.jsonl"), "w", encoding="utf-8") as f:
            for n, (cat, msgs) in enumerate(items, 1):
                r = REASON[cat]
                rec = {"id": f"{name}-{n:05d}", "category": cat,
                       "expect": {"handoff": r is not None, "reason": r},
                       "conversation": {"domain": "billing", "messages": msgs}}
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        counts[split] = collections.Counter(c for c, _ in items)
    cats = sorted(set(counts["dev"]) | set(counts["holdout"]), key=lambda c: (REASON[c] is None, c))
    print(f"{'category':28} {'dev':>5} {'hold':>5}")
    for c in cats:
        print(f"{c:28} {counts['dev'][c]:5} {counts['holdout'][c]:5}")
    for s in ("dev", "holdout"):
        neg = sum(v for k, v in counts[s].items() if REASON[k] is None)
        tot = sum(counts[s].values())
        print(s, "total", tot, "negatives", neg, f"({neg / max(tot, 1):.0%})")
    for (split, why), n in sorted(excluded.items()):
        print(f"excluded from {split}: {n} ({why})")


if __name__ == "__main__":
    main()
