"""The two networks, small enough to train from scratch on two CPU cores and to run in a few ms.

``Locator``: a fully convolutional net over a strip at 10 px/cm; per 0.4 cm cell it gives the index
heatmap (where a card's index anchor is), the anchor's offset inside the cell, and two masks: card
cloth covered by cards, and by an occluder (an arm). ``Classifier``: a 64 × 32 index crop → 54 cards
plus "none". Both take float32 BGR in 0..1, NCHW.
"""

from __future__ import annotations

import torch
from torch import nn


def _conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class Locator(nn.Module):
    """Output channels: 0 heat logit, 1–2 offset (sigmoid: x, y inside the cell), 3 card logit, 4 occluder logit."""

    def __init__(self, width: int = 32) -> None:
        super().__init__()
        self.body = nn.Sequential(
            _conv(3, 16, 2),
            _conv(16, width, 2),
            _conv(width, width),
            _conv(width, width, dilation=2),
            _conv(width, width, dilation=4),
            _conv(width, width, dilation=8),
        )
        self.head = nn.Conv2d(width, 5, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x))


class Classifier(nn.Module):
    """54 card codes + "none", in ``referee_station.render.dataset.CLASSES`` order."""

    def __init__(self, classes: int = 55, width: float = 1.0) -> None:
        """``width`` scales every convolution's channels (1.0: the shipped classifiers)."""
        super().__init__()
        c16, c32, c64, c96 = (round(c * width) for c in (16, 32, 64, 96))
        self.body = nn.Sequential(
            _conv(3, c16),
            nn.MaxPool2d(2),
            _conv(c16, c32),
            _conv(c32, c32),
            nn.MaxPool2d(2),
            _conv(c32, c64),
            _conv(c64, c64),
            nn.MaxPool2d(2),
            _conv(c64, c96),
            nn.Conv2d(c96, 32, 1),
            nn.ReLU(inplace=True),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(32 * 8 * 4, classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x))
