#!/usr/bin/env bash
# Stage 1 of the paper's recipe: SFT on verifier-passing teacher trajectories (3 epochs, batch 64).
#   progagent eval --model openai:<teacher> ... --out runs/teacher
#   progagent export sft --in runs/teacher --format verl --out data/sft.parquet      (verl)
#   progagent export sft --in runs/teacher --format ms-swift --out data/sft.jsonl    (ms-swift)
# Not run on the machine that wrote this file (no GPUs).
set -euo pipefail
MODEL=${MODEL:-Qwen/Qwen3-8B}
ENGINE=${ENGINE:-verl}
if [ "$ENGINE" = verl ]; then
  # Qwen3's whole-conversation render differs from verl's per-message render (known open issue):
  # data.ignore_input_ids_mismatch=True is required.
  torchrun --nproc_per_node="${GPUS_PER_NODE:-8}" -m verl.trainer.sft_trainer \
    data.train_files=data/sft.parquet data.val_files=data/sft.val.parquet \
    data.multiturn.enable=True data.multiturn.messages_key=messages data.multiturn.tools_key=tools \
    data.multiturn.enable_thinking_key=enable_thinking data.ignore_input_ids_mismatch=True \
    data.train_batch_size=64 trainer.total_epochs=3 model.partial_pretrain="$MODEL" "$@"
else
  swift sft --model "$MODEL" --dataset data/sft.jsonl --agent_template hermes \
    --loss_scale default --num_train_epochs 3 --per_device_train_batch_size 1 \
    --gradient_accumulation_steps $((64 / ${GPUS_PER_NODE:-8})) --learning_rate 1e-5 "$@"
fi
