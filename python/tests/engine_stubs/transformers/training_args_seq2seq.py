"""Stand-in for transformers.training_args_seq2seq (see training_args.py). Test fixture only."""

from dataclasses import dataclass
from typing import Optional

from .training_args import TrainingArguments


@dataclass
class Seq2SeqTrainingArguments(TrainingArguments):
    sortish_sampler: bool = False
    predict_with_generate: bool = False
    generation_max_length: Optional[int] = None
    generation_num_beams: Optional[int] = None
