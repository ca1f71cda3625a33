#!/usr/bin/env bash
# ms-swift GSPO over progagent episodes (gym Env; the verifier's reward is the gym total_reward).
# Not run on the machine that wrote this file (no GPUs).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
export PROGAGENT_ROLLOUT_URLS=${PROGAGENT_ROLLOUT_URLS:-http://127.0.0.1:8700}
swift rlhf --rlhf_type grpo --model "${MODEL:?set MODEL}" --dataset "${DATA:-data/rl-ptc/train.jsonl}" \
  --external_plugins "$HERE/../swift_plugin.py" --use_gym_env true --gym_env progagent \
  --importance_sampling_level sequence --epsilon 3e-4 --epsilon_high 4e-4 --beta 0 \
  --num_generations 16 --learning_rate 1e-6 --max_turns 100 --use_vllm true --vllm_mode server "$@"
