#!/usr/bin/env bash
# Stage 2 of the paper's recipe: GSPO over progagent episodes with verl (Ray, one rollout service per node).
#   MODE=ptc|dtc|hybrid  MODEL=<path to the SFT checkpoint>  NNODES, GPUS_PER_NODE as usual for verl.
# Before: on every node, `progagent rollout serve --port 8700 --max-episodes 1024 &`; once, the dataset:
#   progagent export rl --tasks '*' --scales all --harness "$MODE" --format verl --out data/rl-$MODE
# Not run on the machine that wrote this file (no GPUs); every key below is a verl config key of mid-2026.
set -euo pipefail
MODE=${MODE:-ptc}
MODEL=${MODEL:?set MODEL to the SFT checkpoint}
DATA=${DATA:-data/rl-$MODE}
HERE=$(cd "$(dirname "$0")" && pwd)
# GSPO paper's clip ratios; the authors' own script uses clip_ratio_high=0.28 (set CLIP_HIGH=0.28).
CLIP_LOW=${CLIP_LOW:-3e-4}
CLIP_HIGH=${CLIP_HIGH:-4e-4}
export PYTHONPATH="$(dirname "$HERE")/..:${PYTHONPATH:-}"
export PROGAGENT_ROLLOUT_URLS=${PROGAGENT_ROLLOUT_URLS:-http://127.0.0.1:8700}
export PROGAGENT_MAX_TURNS=${PROGAGENT_MAX_TURNS:-100}
export PROGAGENT_PTC_PENALTY=${PROGAGENT_PTC_PENALTY:-0}

python3 -m verl.trainer.main_ppo \
  algorithm.adv_estimator=grpo \
  algorithm.use_kl_in_reward=False \
  actor_rollout_ref.actor.use_kl_loss=False \
  actor_rollout_ref.actor.policy_loss.loss_mode=gspo \
  actor_rollout_ref.actor.clip_ratio_low="$CLIP_LOW" \
  actor_rollout_ref.actor.clip_ratio_high="$CLIP_HIGH" \
  actor_rollout_ref.actor.optim.lr=1e-6 \
  actor_rollout_ref.actor.optim.lr_warmup_steps=10 \
  actor_rollout_ref.actor.optim.weight_decay=0.1 \
  actor_rollout_ref.actor.ppo_epochs=2 \
  actor_rollout_ref.model.path="$MODEL" \
  actor_rollout_ref.rollout.mode=async \
  actor_rollout_ref.rollout.n=16 \
  actor_rollout_ref.rollout.temperature=1.0 \
  actor_rollout_ref.rollout.prompt_length=5600 \
  actor_rollout_ref.rollout.response_length=75000 \
  actor_rollout_ref.rollout.agent.agent_loop_config_path="$HERE/agent_loop.yaml" \
  data.train_files="$DATA/train.parquet" \
  data.val_files="$DATA/val.parquet" \
  data.return_raw_chat=True \
  data.train_batch_size=32 \
  data.max_prompt_length=5600 \
  data.max_response_length=75000 \
  trainer.total_training_steps=150 \
  trainer.nnodes="${NNODES:-1}" \
  trainer.n_gpus_per_node="${GPUS_PER_NODE:-8}" \
  "$@"
