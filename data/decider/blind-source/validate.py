#!/usr/bin/env python3
"""Validation pass for both corpora: JSON validity, schema, label consistency, split disjointness."""
import json, os, re, sys, collections
D = os.path.dirname(os.path.abspath(__file__))
REASONS = {"customer_request", "policy_topic", "safety", "no_capability", "value_threshold", "tool_failures",
           "loop_detected", "frustration_and_loop"}
POS_REASON = {"direct_request": "customer_request", "indirect_request": "customer_request", "formal_complaint": "policy_topic",
              "legal": "policy_topic", "bereavement": "policy_topic", "safety": "safety", "loop": "loop_detected",
              "frustration_loop": "frustration_and_loop", "value_threshold": "value_threshold", "tool_failures": "tool_failures"}
errors = []
def err(*a): errors.append(" ".join(map(str, a)))

def amount_value(a):
    s = str(a).replace("USD", "").replace("EUR", "").replace("$", "").replace("£", "").replace("€", "").strip()
    if re.fullmatch(r"\d{1,3}(\.\d{3})*,\d{2}", s) or re.fullmatch(r"\d+,\d{1,2}", s):
        s = s.replace(".", "").replace(",", ".")
    else:
        s = s.replace(",", "")
    return float(s)

cust_texts = {}
ids = set()
for split in ("dev", "holdout"):
    cust_texts[split] = set()
    for n, line in enumerate(open(os.path.join(D, "decider-%s.jsonl" % split), encoding="utf-8"), 1):
        try:
            row = json.loads(line)
        except Exception as e:
            err("decider", split, n, "bad json", e); continue
        if set(row) != {"id", "category", "expect", "conversation"}: err("decider keys", row.get("id"))
        if row["id"] in ids: err("dup id", row["id"])
        ids.add(row["id"])
        ex, conv, cat = row["expect"], row["conversation"], row["category"]
        if conv.get("domain") != "billing": err("domain", row["id"])
        msgs = conv["messages"]
        for m in msgs:
            if m["role"] not in ("customer", "agent", "human", "tool"): err("role", row["id"])
            if m["role"] == "tool":
                if not {"name", "arguments", "ok", "output"} <= set(m) or not isinstance(m["ok"], bool) or not isinstance(m["output"], str):
                    err("tool line", row["id"])
            elif not isinstance(m.get("text"), str) or not m["text"].strip():
                err("text", row["id"])
        if cat in POS_REASON:
            if ex != {"handoff": True, "reason": POS_REASON[cat]}: err("label", row["id"], ex)
        else:
            if not cat.startswith("neg_") or ex != {"handoff": False, "reason": None}: err("neg label", row["id"], ex)
        # structural label checks
        tools = [m for m in msgs if m["role"] == "tool"]
        hi_refund = [t for t in tools if t["name"] == "refund_charge" and amount_value(t["arguments"]["amount"]) > 50]
        if (cat == "value_threshold") != bool(hi_refund): err("value/refund mismatch", row["id"])
        run = best = 0
        for t in tools:
            run = run + 1 if not t["ok"] else 0
            best = max(best, run)
        if (cat == "tool_failures") != (best >= 3): err("tool failure run mismatch", row["id"], best)
        for m in msgs:
            if m["role"] == "customer": cust_texts[split].add(m["text"].lower().strip(" .!?"))
print("decider rows:", len(ids))
ov = cust_texts["dev"] & cust_texts["holdout"]
print("customer texts shared dev/holdout:", len(ov), "of", len(cust_texts["holdout"]), sorted(ov)[:30])

# secrets
sid = set(); stats = collections.Counter()
for split in ("dev", "holdout"):
    for n, line in enumerate(open(os.path.join(D, "secrets-%s.jsonl" % split), encoding="utf-8"), 1):
        try:
            row = json.loads(line)
        except Exception as e:
            err("secrets", split, n, "bad json", e); continue
        if not {"id", "class", "conversation", "secrets", "keep"} <= set(row): err("secret keys", n)
        if row["id"] in sid: err("dup id", row["id"])
        sid.add(row["id"])
        conv = row["conversation"]
        text = json.dumps(conv, ensure_ascii=False)
        plain = []
        for m in conv["messages"]:
            if m["role"] == "tool":
                plain += [json.dumps(m["arguments"], ensure_ascii=False), m["output"]]
            else:
                plain.append(m["text"])
        plain.append(conv.get("summary", ""))
        plain = "\n".join(plain)
        for x in row["secrets"]:
            if x not in plain: err("secret not in conversation", row["id"], x)
            for k in row["keep"]:
                if x in k or k in x: err("secret/keep overlap", row["id"], x, k)
        for x in row["secrets"]:
            if any(x != y and x in y for y in row["secrets"]): err("secret inside secret", row["id"], x)
            i = plain.find(x)
            while i != -1:
                b, a = plain[i - 1:i], plain[i + len(x):i + len(x) + 1]
                if (b and (b.isalnum() or b == "_")) or (a and (a.isalnum() or a == "_")):
                    err("secret glued to other text", row["id"], x)
                i = plain.find(x, i + 1)
        stripped = plain
        for x in sorted(row["secrets"], key=len, reverse=True): stripped = stripped.replace(x, "#")
        for k in row["keep"]:
            if k not in stripped: err("keep lost when secrets removed", row["id"], k)
        for x in row["secrets"]:
            d = re.sub(r"\D", "", x)
            if re.fullmatch(r"[\d .\-/]+", x) and 13 <= len(d) <= 19 and any(c in x for c in " -./") or (x.isdigit() and 13 <= len(x) <= 19):
                tot = sum((int(c) * 2 - 9 if int(c) * 2 > 9 else int(c) * 2) if i % 2 else int(c) for i, c in enumerate(reversed(d)))
                if tot % 10: err("card not luhn", row["id"], x)
        stats[(split, row["class"])] += 1
        stats[(split, "_secrets")] += len(row["secrets"])
print("secret rows:", len(sid), dict(stats))
print("ERRORS:", len(errors))
for e in errors[:40]: print("  ", e)
sys.exit(1 if errors else 0)
