"""progagent_rl: trainer adapters for progagent's rollout service (`progagent rollout serve`).

The core (`client`, `rollout`) is standard library only. `verl_agent_loop` imports verl and
`swift_plugin` imports ms-swift; import them only where those trainers are installed.
"""

from .client import RolloutServiceError, ServiceBusyError, ServiceClient, ServicePool
from .rollout import EpisodeSpec, GenerateFn, RolloutLimits, RolloutResult, run_token_rollout, shaped_reward

__all__ = [
    "EpisodeSpec",
    "GenerateFn",
    "RolloutLimits",
    "RolloutResult",
    "RolloutServiceError",
    "ServiceBusyError",
    "ServiceClient",
    "ServicePool",
    "run_token_rollout",
    "shaped_reward",
]
