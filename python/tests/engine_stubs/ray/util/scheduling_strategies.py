"""ray.util.scheduling_strategies stand-in."""


class NodeAffinitySchedulingStrategy:
    def __init__(self, node_id, soft=False, **kwargs):
        self.node_id, self.soft = node_id, soft


class PlacementGroupSchedulingStrategy:
    def __init__(self, *args, **kwargs):
        pass
