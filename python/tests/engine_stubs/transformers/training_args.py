"""Stand-in for transformers.training_args: the fields of Hugging Face's TrainingArguments that ms-swift's
argument classes inherit and progagent's recipes set, with Hugging Face's types. Test fixture only."""

from dataclasses import dataclass, field
from typing import List, Optional, Union


@dataclass
class TrainingArguments:
    output_dir: Optional[str] = None
    per_device_train_batch_size: int = 8
    gradient_accumulation_steps: int = 1
    learning_rate: float = 5e-5
    weight_decay: float = 0.0
    num_train_epochs: float = 3.0
    max_steps: int = -1
    lr_scheduler_type: str = "linear"
    warmup_ratio: float = 0.0
    warmup_steps: int = 0
    logging_steps: float = 500
    save_steps: float = 500
    eval_steps: Optional[float] = None
    seed: int = 42
    bf16: bool = False
    fp16: bool = False
    report_to: Union[None, str, List[str]] = None
    gradient_checkpointing: bool = False
    deepspeed: Optional[Union[dict, str]] = None
    save_strategy: str = "steps"
    eval_strategy: str = "no"
    run_name: Optional[str] = None
    remove_unused_columns: bool = True
    label_names: Optional[List[str]] = field(default=None)
