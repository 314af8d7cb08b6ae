#!/usr/bin/env bash
# Checks Baton against the real Python trainers (docs/rl.md): `datasets.load_dataset` on every
# config and split of a `baton export dataset` folder, TRL's SFT on `baton export sft` output,
# TRL's GRPO against `baton env serve` through python/baton_env, OpenEnv's `openenv validate` and
# OpenEnv's own clients on the running server, and the package's pytest tests.
# Not part of `npm test` (it needs pip and a few minutes of CPU).
#
#   scripts/check-trainers.sh
#
# Environment:
#   PYTHON           the interpreter that makes the venv (python3)
#   VENV             the venv (.venv; made if missing, packages added to it)
#   WORK             scratch folder for data, models and logs (.tmp/check-trainers)
#   TORCH_INDEX_URL  a pip index for torch, e.g. PyTorch's CPU-only wheels (else pip's default)
#   OPENENV_SRC      a checkout of meta-pytorch/OpenEnv, installed when pip has no openenv-core
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PYTHON=${PYTHON:-python3}
VENV=${VENV:-$ROOT/.venv}
WORK=${WORK:-$ROOT/.tmp/check-trainers}
PY=$VENV/bin/python
export TRL_EXPERIMENTAL_SILENCE=1 TOKENIZERS_PARALLELISM=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

step() { printf '\n== %s\n' "$*" >&2; }
fail() {
  printf 'check-trainers: %s\n' "$*" >&2
  exit 1
}

step "venv $VENV: torch (CPU), transformers, trl, datasets, openenv-core, baton_env"
[ -x "$PY" ] || "$PYTHON" -m venv "$VENV"
pip_install() { "$PY" -m pip install --quiet "$@"; }
pip_install torch ${TORCH_INDEX_URL:+--index-url "$TORCH_INDEX_URL"}
pip_install "trl>=1.13" "transformers>=5.2" "datasets>=4.8" "websockets>=13" pytest setuptools wheel
if ! "$PY" -c 'import openenv.cli' 2>/dev/null; then
  if ! pip_install openenv-core; then
    [ -n "${OPENENV_SRC:-}" ] || fail "pip has no openenv-core: set OPENENV_SRC to a checkout of meta-pytorch/OpenEnv"
    # OpenEnv's server and CLI, without its web UI (gradio), which the validator and the clients do not use.
    pip_install --no-deps "$OPENENV_SRC"
    pip_install fastapi pydantic uvicorn requests typer rich pyyaml huggingface_hub tomli tomli-w httpx fastmcp openai
  fi
fi
pip_install --no-build-isolation -e "$ROOT/python"
"$PY" - <<'EOF'
import importlib.metadata as m
print({p: m.version(p) for p in ("torch", "transformers", "trl", "datasets", "openenv-core", "websockets", "baton-env")})
EOF

step "build the CLI (dist/)"
npx tsc -p tsconfig.json

step "pytest python/tests (real baton env serve processes)"
(cd "$ROOT/python" && "$PY" -m pytest -q -p no:cacheprovider)

mkdir -p "$WORK"
step "SFT data: baton eval (rule agent, billing main dev) and baton export sft"
rm -rf "$WORK/run"
node bin/baton.js eval --domain billing --tasks main --split dev --agent rule --styles neutral --out "$WORK/run" >"$WORK/eval.log"
node bin/baton.js export sft "$WORK/run" --filter success,no-violation --out "$WORK/sft.jsonl" 2>&1 | tail -3

step "dataset: baton export dataset of two runs (billing main dev, billing hand-off variants train), loaded by datasets"
rm -rf "$WORK/run-variants" "$WORK/dataset"
node bin/baton.js eval --domain billing --tasks handoff --split train --agent always-transfer --styles neutral,terse --limit 20 --out "$WORK/run-variants" >"$WORK/eval-variants.log"
node bin/baton.js export dataset "$WORK/run" "$WORK/run-variants" --out "$WORK/dataset" 2>&1 | tail -7
"$PY" python/scripts/load_dataset.py "$WORK/dataset" 2>"$WORK/dataset.log" | tee "$WORK/dataset.json" ||
  fail "datasets did not load every config and split of the export with the card's row counts and fields (see $WORK/dataset.log)"

step "a tiny Qwen2-shaped model, built from a config (no download)"
"$PY" python/scripts/tiny_model.py "$WORK/sft.jsonl" "$WORK/tiny" 2>/dev/null | tail -1

step "SFT: 5 steps, assistant-only loss"
"$PY" python/scripts/sft.py "$WORK/tiny" "$WORK/sft.jsonl" "$WORK/sft-model" 5 >"$WORK/sft.out" 2>"$WORK/sft.log" || fail "SFT failed: see $WORK/sft.log"
tail -1 "$WORK/sft.out" | tee "$WORK/sft.json"
"$PY" -c 'import json,sys; s=json.load(open(sys.argv[1])); assert s["steps"] == 5 and 0 < s["trained_token_share_of_first_row"] < 1, s' "$WORK/sft.json" ||
  fail "SFT did not run 5 steps with assistant-only loss (see $WORK/sft.log)"

step "baton env serve (billing main train, r2, 8 sessions)"
node bin/baton.js env serve --domain billing --tasks main --split train --reward r2 --port 0 --max-sessions 8 2>"$WORK/serve.log" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
URL=""
for _ in $(seq 1 300); do
  URL=$(grep -oE 'OpenEnv on http://[^ ]+' "$WORK/serve.log" | head -1 | cut -d' ' -f3 || true)
  [ -n "$URL" ] && break
  kill -0 "$SERVER" 2>/dev/null || fail "baton env serve exited: $(cat "$WORK/serve.log")"
  sleep 0.1
done
[ -n "$URL" ] || fail "baton env serve did not print its address"
echo "$URL"

step "openenv validate --url $URL"
"$VENV/bin/openenv" validate --url "$URL" >"$WORK/validate.json" || true
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print({"passed": r["passed"], "profile": r["standard_profile"], "mode": r["mode"], **{c["id"]: c["passed"] for c in r["criteria"]}}); sys.exit(0 if r["passed"] else 1)' "$WORK/validate.json" ||
  fail "openenv validate failed: $WORK/validate.json"

step "OpenEnv's own clients: GenericEnvClient and MCPToolClient over /ws, MCPToolClient (production mode) over /mcp"
"$PY" python/examples/openenv_client.py "$URL"

step "GRPO: 2 steps, 8 rollouts per generation (batch 4), the server's reward"
"$PY" python/scripts/grpo.py "$WORK/sft-model" "$URL" "$WORK/grpo-model" 2 >"$WORK/grpo.out" 2>"$WORK/grpo.log" || fail "GRPO failed: see $WORK/grpo.log"
tail -1 "$WORK/grpo.out" | tee "$WORK/grpo.json"
"$PY" -c 'import json,sys; s=json.load(open(sys.argv[1])); assert s["grpo_steps"] == 2 and s["environments"] > 4 and s["reward_varies"], s' "$WORK/grpo.json" ||
  fail "GRPO did not run 2 steps over more rollouts than a batch with a varying reward (see $WORK/grpo.log)"

step "check-trainers: passed (logs and outputs in $WORK)"
