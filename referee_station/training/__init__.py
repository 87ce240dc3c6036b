"""Training of the card reader's networks: ``nets`` defines them, ``train`` trains, validates on the
held-out design and exports ONNX, ``finetune`` adapts them to a registered deck.

It needs torch, the ``[train]`` extra, which the station never imports: importing this package without it
raises at once, naming the extra, instead of failing somewhere inside a training run.
"""

from __future__ import annotations

from importlib.util import find_spec

from referee_station.extras import DISTRIBUTION

if find_spec("torch") is None:
    raise ModuleNotFoundError(
        "referee_station.training needs the [train] extra (torch is not installed): "
        f"pip install '{DISTRIBUTION}[train]'",
        name="torch",
    )
