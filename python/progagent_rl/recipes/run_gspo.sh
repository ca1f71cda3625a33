#!/usr/bin/env bash
# Stage 2 of the paper's recipe: GSPO over progagent episodes with verl, one rollout service per Ray node.
#
# Reference setup: Qwen3-8B after SFT, one node of 8 GPUs (80 GB), the paper's 32 tasks x 16 rollouts a step,
# 150 steps, binary verifier reward. Checked against verl 1dda039 (Aug 2026) by
# `python -m progagent_rl.check verl`, which validates exactly the arguments this script passes; it has not
# trained a model (no GPUs where it was written).
#
#   MODE=ptc|dtc|hybrid   the harness (one dataset and one run per mode)
#   MODEL=<dir>           the SFT checkpoint in Hugging Face form (sft.sh with verl writes it to
#                         checkpoints/progagent-sft/<experiment>/global_step_<N>/huggingface); its config.json
#                         needs YaRN rope scaling for 80,600 positions (README, "Runbook")
#   PRESET=gspo-paper|authors
#       gspo-paper: clip ratios 3e-4 / 4e-4 (GSPO paper; verl's GSPO examples), seq-mean-token-mean
#       authors:    clip ratios 0.2 / 0.28 (verl's default low, the authors' high), token-mean
#   DATA=<dir>            default data/rl-$MODE, written once by
#       progagent export rl --tasks '*' --scales all --harness $MODE --format verl \
#         --out data/rl-$MODE/train.parquet --val-share 0.1
#     which writes train.parquet and train.val.parquet there (the names read below).
#   NNODES, GPUS_PER_NODE (default 1 x 8); PROGAGENT_PORT (8700): the port of the node-local services.
#   PROGAGENT_PTC_PENALTY (0): reward max(r - penalty x PTC errors, 0); the authors' script uses 0.01.
# Extra arguments are verl overrides appended last (they win). The services are started by
# `python -m progagent_rl.launcher`, which connects to the Ray cluster (RAY_ADDRESS, or a local one), starts
# `progagent rollout serve` on every node (PROGAGENT_CLI, default `progagent`, must run there; more serve options
# in PROGAGENT_SERVE_ARGS, e.g. '--max-episodes 512 --warm-kernels 64'), restarts one whose process exits, runs
# verl, and ends the services with it.
# PROGAGENT_RECIPE_ARGS_OUT=<file> writes verl's arguments there (NUL-separated) and exits: the self-check
# validates them without running anything.
set -euo pipefail
MODE=${MODE:-ptc}
MODEL=${MODEL:-${PROGAGENT_RECIPE_ARGS_OUT:+Qwen/Qwen3-8B}}
MODEL=${MODEL:?set MODEL to the SFT checkpoint}
DATA=${DATA:-data/rl-$MODE}
PRESET=${PRESET:-gspo-paper}
NNODES=${NNODES:-1}
GPUS_PER_NODE=${GPUS_PER_NODE:-8}
PORT=${PROGAGENT_PORT:-8700}
HERE=$(cd "$(dirname "$0")" && pwd)
PACKAGE_ROOT=$(cd "$HERE/../.." && pwd) # the folder holding progagent_rl
PROMPT_LEN=5600                         # the authors' prompt budget
RESPONSE_LEN=75000                      # the authors' response budget (model + tool tokens)
CONTEXT_LEN=$((PROMPT_LEN + RESPONSE_LEN))
# One sequence must fit one micro-batch: dynamic batching packs up to this many tokens per GPU.
TOKENS_PER_GPU=$(((CONTEXT_LEN + 1023) / 1024 * 1024))

case "$PRESET" in
  gspo-paper) CLIP_LOW=3e-4 CLIP_HIGH=4e-4 LOSS_AGG=seq-mean-token-mean ;;
  authors) CLIP_LOW=0.2 CLIP_HIGH=0.28 LOSS_AGG=token-mean ;;
  *) echo "PRESET must be gspo-paper or authors, got '$PRESET'" >&2 && exit 2 ;;
esac

export PYTHONPATH="$PACKAGE_ROOT${PYTHONPATH:+:$PYTHONPATH}"
export PROGAGENT_ROLLOUT_URLS=${PROGAGENT_ROLLOUT_URLS:-http://127.0.0.1:$PORT}
export PROGAGENT_MAX_TURNS=${PROGAGENT_MAX_TURNS:-100}
export PROGAGENT_PTC_PENALTY=${PROGAGENT_PTC_PENALTY:-0}
ENV_VARS=+ray_kwargs.ray_init.runtime_env.env_vars

ARGS=(
  algorithm.adv_estimator=grpo
  algorithm.use_kl_in_reward=False
  actor_rollout_ref.model.path="$MODEL"
  actor_rollout_ref.model.use_remove_padding=True
  actor_rollout_ref.model.enable_gradient_checkpointing=True
  actor_rollout_ref.actor.use_kl_loss=False
  actor_rollout_ref.actor.policy_loss.loss_mode=gspo
  actor_rollout_ref.actor.clip_ratio_low="$CLIP_LOW"
  actor_rollout_ref.actor.clip_ratio_high="$CLIP_HIGH"
  actor_rollout_ref.actor.loss_agg_mode="$LOSS_AGG"
  actor_rollout_ref.actor.optim.lr=1e-6
  actor_rollout_ref.actor.optim.lr_warmup_steps=10
  actor_rollout_ref.actor.optim.weight_decay=0.1
  actor_rollout_ref.actor.ppo_epochs=2
  # 32 prompts a step in 4 mini-batches of 8 prompts (128 trajectories), as the GSPO paper splits a batch.
  actor_rollout_ref.actor.ppo_mini_batch_size=8
  # verl requires a micro-batch size even with dynamic batching; 1 fits one 80k sequence if it is turned off.
  actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1
  actor_rollout_ref.actor.use_dynamic_bsz=True
  actor_rollout_ref.actor.ppo_max_token_len_per_gpu="$TOKENS_PER_GPU"
  actor_rollout_ref.actor.fsdp_config.param_offload=True
  # Checkpoints (every trainer.save_freq steps) also hold the policy in Hugging Face form, for evaluation.
  actor_rollout_ref.actor.checkpoint.save_contents='[model,optimizer,extra,hf_model]'
  actor_rollout_ref.actor.checkpoint.load_contents='[model,optimizer,extra]'
  actor_rollout_ref.actor.fsdp_config.optimizer_offload=True
  actor_rollout_ref.rollout.name=vllm
  actor_rollout_ref.rollout.mode=async
  actor_rollout_ref.rollout.n=16
  actor_rollout_ref.rollout.temperature=1.0
  actor_rollout_ref.rollout.calculate_log_probs=True
  actor_rollout_ref.rollout.prompt_length="$PROMPT_LEN"
  actor_rollout_ref.rollout.response_length="$RESPONSE_LEN"
  actor_rollout_ref.rollout.max_model_len="$CONTEXT_LEN"
  actor_rollout_ref.rollout.max_num_batched_tokens="$TOKENS_PER_GPU"
  actor_rollout_ref.rollout.tensor_model_parallel_size=2
  actor_rollout_ref.rollout.gpu_memory_utilization=0.7
  actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1
  actor_rollout_ref.rollout.log_prob_use_dynamic_bsz=True
  actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu="$TOKENS_PER_GPU"
  actor_rollout_ref.rollout.agent.agent_loop_config_path="$HERE/agent_loop.yaml"
  actor_rollout_ref.rollout.val_kwargs.n=1
  data.train_files="$DATA/train.parquet"
  data.val_files="$DATA/train.val.parquet"
  data.return_raw_chat=True
  data.train_batch_size=32
  data.max_prompt_length="$PROMPT_LEN"
  data.max_response_length="$RESPONSE_LEN"
  data.filter_overlong_prompts=True
  trainer.total_training_steps=150
  trainer.test_freq=10
  trainer.save_freq=50
  trainer.val_before_train=True
  trainer.logger='["console","tensorboard"]'
  trainer.project_name=progagent
  trainer.experiment_name="gspo-$MODE-$PRESET"
  trainer.nnodes="$NNODES"
  trainer.n_gpus_per_node="$GPUS_PER_NODE"
  # The agent loops run in Ray workers on every node: the settings they read travel with the job.
  "$ENV_VARS.PYTHONPATH='$PYTHONPATH'"
  "$ENV_VARS.PROGAGENT_ROLLOUT_URLS='$PROGAGENT_ROLLOUT_URLS'"
  "$ENV_VARS.PROGAGENT_MAX_TURNS='$PROGAGENT_MAX_TURNS'"
  "$ENV_VARS.PROGAGENT_PTC_PENALTY='$PROGAGENT_PTC_PENALTY'"
)
for NAME in PROGAGENT_AUTH_TOKEN PROGAGENT_TOKENIZER PROGAGENT_TERMINAL PROGAGENT_INTERFACE; do
  if [ -n "${!NAME:-}" ]; then ARGS+=("$ENV_VARS.$NAME='${!NAME}'"); fi
done
ARGS+=("$@")

if [ -n "${PROGAGENT_RECIPE_ARGS_OUT:-}" ]; then
  printf '%s\0' "${ARGS[@]}" >"$PROGAGENT_RECIPE_ARGS_OUT"
  exit 0
fi
exec python3 -m progagent_rl.launcher --port "$PORT" -- python3 -m verl.trainer.main_ppo "${ARGS[@]}"
