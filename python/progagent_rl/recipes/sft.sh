#!/usr/bin/env bash
# Stage 1 of the paper's recipe: SFT on verifier-passing teacher trajectories, 3 epochs, batch 64.
# Reference setup: Qwen3-8B, one node of 8 GPUs. Checked against verl 1dda039 and ms-swift 3602360 by
# `python -m progagent_rl.check verl|swift` (keys against the engines' config schemas; verl's dataset class on
# an exported parquet); it has not trained a model (no GPUs where it was written).
#
#   ENGINE=verl (default) | ms-swift;  MODEL=<base model> (default Qwen/Qwen3-8B);  DATA=<dir> (default data/sft)
#   The data, written once from a teacher's runs (rows over 60,000 tokens are dropped; see MAX_LENGTH below):
#     progagent export sft --in runs/teacher --format verl --max-tokens 60000 --val-share 0.05 \
#       --out data/sft/train.parquet        (writes train.parquet, train.val.parquet)
#     progagent export sft --in runs/teacher --format ms-swift --max-tokens 60000 --val-share 0.05 \
#       --out data/sft/train.jsonl          (writes train.jsonl, train.val.jsonl)
#   PROGAGENT_RECIPE_ARGS_OUT=<file>: write the engine's arguments there (NUL-separated, after the command's
#   name) and exit.
set -euo pipefail
ENGINE=${ENGINE:-verl}
MODEL=${MODEL:-Qwen/Qwen3-8B}
DATA=${DATA:-data/sft}
GPUS=${GPUS_PER_NODE:-8}
HERE=$(cd "$(dirname "$0")" && pwd)
PACKAGE_ROOT=$(cd "$HERE/../.." && pwd)
# Our rows average ~19k tokens and reach 123k; 64k positions hold all but the longest few percent, which the
# export drops (--max-tokens 60,000: the margin covers verl's per-message render, which keeps the reasoning of
# earlier turns that Qwen3's whole-conversation render strips).
MAX_LENGTH=65536
# Sequences of 64k tokens: each split over 4 GPUs (sequence parallel) so activations and logits fit in 80 GB.
SP=4

if [ "$ENGINE" = verl ]; then
  ARGS=(
    data.train_files="$DATA/train.parquet"
    data.val_files="$DATA/train.val.parquet"
    data.messages_key=messages
    data.tools_key=tools
    # `tools` is a JSON string in our parquet (tool schemas differ per task, which a parquet struct column cannot
    # hold without null-filling every other task's fields); verl's MultiTurnSFTDataset would hand the string to
    # apply_chat_template, which rejects it. This subclass parses it first.
    data.custom_cls.path="$PACKAGE_ROOT/progagent_rl/verl_sft_dataset.py"
    data.custom_cls.name=ProgAgentSFTDataset
    # Qwen3's whole-conversation render differs from verl's per-message render (think blocks of earlier turns).
    data.ignore_input_ids_mismatch=True
    data.train_batch_size=64
    data.pad_mode=no_padding
    data.max_length=$MAX_LENGTH
    # A backstop only: rows exported with --max-tokens 60000 stay below max_length; `error` would stop the run.
    data.truncation=right
    # Dynamic batches of at most one 64k sequence per GPU (no_padding packs shorter rows together).
    data.use_dynamic_bsz=True
    data.micro_batch_size_per_gpu=1
    data.max_token_len_per_gpu=$MAX_LENGTH
    model.path="$MODEL"
    model.enable_gradient_checkpointing=True
    engine.ulysses_sequence_parallel_size="$SP"
    # The paper gives no SFT learning rate; verl's default (1e-3) would wreck an 8B model. 1e-5 with a short
    # warm-up and cosine decay is the usual full-parameter SFT setting for 7-8B chat models.
    optim.lr=1e-5
    optim.lr_warmup_steps_ratio=0.05
    optim.lr_scheduler_type=cosine
    optim.weight_decay=0.1
    trainer.total_epochs=3
    trainer.n_gpus_per_node="$GPUS"
    trainer.project_name=progagent-sft
    trainer.experiment_name="${EXPERIMENT:-qwen3-8b-sft}"
    trainer.logger='[console,tensorboard]'
    trainer.save_freq=-1
    # The last step's checkpoint also holds the whole model in Hugging Face form (<dir>/global_step_<N>/huggingface),
    # which run_gspo.sh takes as MODEL; verl's default saves only FSDP shards.
    checkpoint.save_contents='[model,optimizer,extra,hf_model]'
    checkpoint.load_contents='[model,optimizer,extra]'
    trainer.test_freq=50
  )
  ARGS+=("$@")
  if [ -n "${PROGAGENT_RECIPE_ARGS_OUT:-}" ]; then
    printf '%s\0' verl.trainer.sft_trainer "${ARGS[@]}" >"$PROGAGENT_RECIPE_ARGS_OUT"
    exit 0
  fi
  export PYTHONPATH="$PACKAGE_ROOT${PYTHONPATH:+:$PYTHONPATH}"
  exec torchrun --standalone --nproc_per_node="$GPUS" -m verl.trainer.sft_trainer "${ARGS[@]}"
elif [ "$ENGINE" = ms-swift ]; then
  ARGS=(
    --model "$MODEL"
    --dataset "$DATA/train.jsonl"
    --val_dataset "$DATA/train.val.jsonl"
    --agent_template hermes
    # The export writes think blocks into content as Qwen3 renders them (an empty one on the last turn only);
    # ms-swift's default would add an empty one to every assistant turn without one.
    --add_non_thinking_prefix false
    --loss_scale default
    --max_length "$MAX_LENGTH"
    # Rows over max_length are dropped (the export already drops them), never cut mid-conversation.
    --truncation_strategy delete
    --num_train_epochs 3
    --per_device_train_batch_size 1
    # 64 sequences a step: GPUS / SP data-parallel ranks x 1 x this.
    --gradient_accumulation_steps $((64 * SP / GPUS))
    # As for verl: the paper gives no SFT learning rate (see above).
    --learning_rate 1e-5
    --lr_scheduler_type cosine
    --warmup_ratio 0.05
    --weight_decay 0.1
    --torch_dtype bfloat16
    --gradient_checkpointing true
    --sequence_parallel_size "$SP"
    --deepspeed zero3
    --report_to tensorboard
    --output_dir "output/sft-swift"
  )
  ARGS+=("$@")
  if [ -n "${PROGAGENT_RECIPE_ARGS_OUT:-}" ]; then
    printf '%s\0' sft "${ARGS[@]}" >"$PROGAGENT_RECIPE_ARGS_OUT"
    exit 0
  fi
  exec env NPROC_PER_NODE="$GPUS" swift sft "${ARGS[@]}"
else
  echo "ENGINE must be verl or ms-swift, got '$ENGINE'" >&2
  exit 2
fi
