#!/usr/bin/env bash
# GSPO over progagent episodes with ms-swift (server mode): `swift rollout` serves vLLM and runs the plugin's
# scheduler; `swift rlhf` trains. Reference setup: Qwen3-8B after SFT, one node of 8 GPUs: GPUs 0-3 serve
# rollouts (tensor parallel 2 x data parallel 2), GPUs 4-7 train; 32 tasks x 16 rollouts a step, 150 steps.
# Checked against ms-swift 3602360 (Aug 2026) by `python -m progagent_rl.check swift`, which checks every flag
# below against ms-swift's argument classes; it has not trained a model (no GPUs where it was written).
#
#   MODE=ptc|dtc|hybrid; MODEL=<SFT checkpoint with YaRN for 80,600 positions, README>
#   PRESET=gspo-paper (epsilon 3e-4 / 4e-4, loss averaged per sequence: ms-swift's loss_type grpo)
#        | authors (0.2 / 0.28, loss averaged over the batch's tokens: loss_type bnpo, verl's token-mean)
#   PROGAGENT_PTC_PENALTY (0): reward max(r - penalty x PTC errors, 0); the authors' script uses 0.01.
#   DATA=<dir> (default data/rl-$MODE), written by
#       progagent export rl --tasks '*' --scales all --harness $MODE --format ms-swift \
#         --out data/rl-$MODE/train.jsonl --val-share 0.1
#     which writes train.jsonl and train.val.jsonl there.
#   STEP=rollout|train|both (default both: the rollout server in the background, then training)
# The rollout service (`progagent rollout serve`, run as PROGAGENT_CLI, default `progagent`, with the options in
# PROGAGENT_SERVE_ARGS) starts through `python -m progagent_rl.launcher` (one per Ray node, or one here without
# Ray), which restarts it if its process exits and ends it with the command it runs. PROGAGENT_RECIPE_ARGS_OUT=<file>: write the two commands' arguments there
# (NUL-separated, each after its command name) and exit.
set -euo pipefail
MODE=${MODE:-ptc}
MODEL=${MODEL:-${PROGAGENT_RECIPE_ARGS_OUT:+Qwen/Qwen3-8B}}
MODEL=${MODEL:?set MODEL to the SFT checkpoint}
DATA=${DATA:-data/rl-$MODE}
PRESET=${PRESET:-gspo-paper}
STEP=${STEP:-both}
PORT=${PROGAGENT_PORT:-8700}
VLLM_PORT=${VLLM_PORT:-8000}
HERE=$(cd "$(dirname "$0")" && pwd)
PACKAGE_ROOT=$(cd "$HERE/../.." && pwd)
case "$PRESET" in
  gspo-paper) EPSILON=3e-4 EPSILON_HIGH=4e-4 LOSS_TYPE=grpo ;;
  authors) EPSILON=0.2 EPSILON_HIGH=0.28 LOSS_TYPE=bnpo ;;
  *) echo "PRESET must be gspo-paper or authors, got '$PRESET'" >&2 && exit 2 ;;
esac
# The plugin imports progagent_rl: the folder holding it must be importable where `swift rollout` runs.
export PYTHONPATH="$PACKAGE_ROOT${PYTHONPATH:+:$PYTHONPATH}"
export PROGAGENT_ROLLOUT_URLS=${PROGAGENT_ROLLOUT_URLS:-http://127.0.0.1:$PORT}
export PROGAGENT_PTC_PENALTY=${PROGAGENT_PTC_PENALTY:-0}

SHARED=(
  --model "$MODEL"
  --external_plugins "$PACKAGE_ROOT/progagent_rl/swift_plugin.py"
  --multi_turn_scheduler progagent_scheduler
  --max_turns 100
)
ROLLOUT=(
  "${SHARED[@]}"
  --vllm_tensor_parallel_size 2
  --vllm_data_parallel_size 2
  # prompt 5,600 + response 75,000 tokens, as the authors (needs YaRN in the checkpoint's config.json)
  --vllm_max_model_len 80600
  --port "$VLLM_PORT"
)
TRAIN=(
  "${SHARED[@]}"
  --rlhf_type grpo
  --dataset "$DATA/train.jsonl"
  --val_dataset "$DATA/train.val.jsonl"
  --agent_template hermes
  --use_vllm true
  --vllm_mode server
  --vllm_server_host 127.0.0.1
  --vllm_server_port "$VLLM_PORT"
  # The rows' extra_info (task, scale, seed) reaches the scheduler in `swift rollout` only with this.
  --vllm_server_pass_dataset true
  # The reward is the scheduler's rollout_infos["total_reward"] (no reward function): said explicitly, since
  # ms-swift otherwise asks the rollout server, which reports it only for --gym_env.
  --use_gym_env true
  --importance_sampling_level sequence
  --epsilon "$EPSILON"
  --epsilon_high "$EPSILON_HIGH"
  --loss_type "$LOSS_TYPE"
  --beta 0
  --num_generations 16
  # 32 prompts x 16 = 512 trajectories a step, trained in 4 optimizer steps of 128 (4 GPUs x 32), as the
  # GSPO paper splits a batch in four.
  --generation_batch_size 512
  --per_device_train_batch_size 1
  --gradient_accumulation_steps 32
  --max_steps 150
  --learning_rate 1e-6
  --lr_scheduler_type constant_with_warmup
  --warmup_steps 10
  --weight_decay 0.1
  --temperature 1.0
  # ms-swift's default is 512 tokens per round; the episode's whole response budget is the cap instead.
  --completion_length_limit_scope total
  --max_completion_length 75000
  --max_length 80600
  --add_non_thinking_prefix false
  --torch_dtype bfloat16
  --deepspeed zero3
  --gradient_checkpointing true
  --log_completions true
  --report_to tensorboard
  --output_dir "output/gspo-swift-$MODE-$PRESET"
)
TRAIN+=("$@")

if [ -n "${PROGAGENT_RECIPE_ARGS_OUT:-}" ]; then
  printf '%s\0' rollout "${ROLLOUT[@]}" rlhf "${TRAIN[@]}" >"$PROGAGENT_RECIPE_ARGS_OUT"
  exit 0
fi
LAUNCH=(python3 -m progagent_rl.launcher --port "$PORT" --)
case "$STEP" in
  rollout) exec "${LAUNCH[@]}" env CUDA_VISIBLE_DEVICES=0,1,2,3 swift rollout "${ROLLOUT[@]}" ;;
  train) exec env CUDA_VISIBLE_DEVICES=4,5,6,7 NPROC_PER_NODE=4 swift rlhf "${TRAIN[@]}" ;;
  both)
    "${LAUNCH[@]}" env CUDA_VISIBLE_DEVICES=0,1,2,3 swift rollout "${ROLLOUT[@]}" &
    ROLLOUT_PID=$!
    trap 'kill "$ROLLOUT_PID" 2>/dev/null || true' EXIT
    CUDA_VISIBLE_DEVICES=4,5,6,7 NPROC_PER_NODE=4 swift rlhf "${TRAIN[@]}"
    ;;
  *) echo "STEP must be rollout, train or both, got '$STEP'" >&2 && exit 2 ;;
esac
