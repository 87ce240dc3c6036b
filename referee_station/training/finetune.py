"""Fine-tune the whole classifier, or the whole locator, on one deck's data (torch, in the training environment).

Run as ``python -m referee_station.training.finetune --model IN.onnx --crops CROPS.npz --out OUT.onnx`` (classifier:
crops and labels) or ``--locator`` (``STRIPS.npz`` in ``referee_station.render.dataset``'s locator format) by a Python
that has torch (the ``[train]`` extra); ``referee_station.deck.register`` does so in subprocesses, so the station
itself never imports torch. The ONNX graph (BatchNorm already folded into the convolutions) is rebuilt
as a torch module node by node, trained, and its tensors are written back into a copy of the same graph:
no export step, and the profile has exactly the generic model's inputs, outputs and operators. The
locator trains with the generic training's targets, loss and photometric augmentation
(``referee_station.training.train``).

Why the whole net and not only the last layer: refitting the head alone on frozen features reached
~95 % of crops of an unseen design (the features overfit a few thousand crops); letting every layer move
reaches the trained-design level in a few epochs (docs/deck.md).
"""

from __future__ import annotations

import argparse
import functools
import time
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn


def _attrs(node: onnx.NodeProto) -> dict:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


class OnnxNet(nn.Module):
    """The classifier graph (a chain of Conv, Relu, MaxPool, Flatten, Gemm) as a torch module, its
    convolutions' weights channels-last: the data come as (N, H, W, 3) images, and a training step is then
    about a sixth faster, to the same weights (docs/deck.md, registration's time)."""

    def __init__(self, model: onnx.ModelProto) -> None:
        super().__init__()
        init = {t.name: torch.from_numpy(numpy_helper.to_array(t).copy()) for t in model.graph.initializer}
        self.names: list[tuple[str, str, str]] = []  # (module attribute, weight name, bias name)
        layers: list[nn.Module] = []
        for node in model.graph.node:
            a = _attrs(node)
            if node.op_type == "Conv":
                w = init[node.input[1]]
                pad = a.get("pads", [0, 0, 0, 0])
                conv = nn.Conv2d(
                    w.shape[1],
                    w.shape[0],
                    tuple(w.shape[2:]),
                    tuple(a.get("strides", [1, 1])),
                    (pad[0], pad[1]),
                    tuple(a.get("dilations", [1, 1])),
                )
                conv.weight.data.copy_(w)
                conv.bias.data.copy_(init[node.input[2]])
                layers.append(conv)
                self.names.append((f"{len(layers) - 1}", node.input[1], node.input[2]))
            elif node.op_type == "Relu":
                layers.append(nn.ReLU())
            elif node.op_type == "MaxPool":
                layers.append(nn.MaxPool2d(tuple(a["kernel_shape"]), tuple(a.get("strides", a["kernel_shape"]))))
            elif node.op_type == "Flatten":
                layers.append(nn.Flatten())
            elif node.op_type == "Gemm" and a.get("transB") == 1:
                w = init[node.input[1]]
                lin = nn.Linear(w.shape[1], w.shape[0])
                lin.weight.data.copy_(w)
                lin.bias.data.copy_(init[node.input[2]])
                layers.append(lin)
                self.names.append((f"{len(layers) - 1}", node.input[1], node.input[2]))
            else:
                raise ValueError(f"classifier graph has an operator this rebuild does not know: {node.op_type}")
        self.net = nn.Sequential(*layers).to(memory_format=torch.channels_last)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def to_onnx(self, model: onnx.ModelProto) -> onnx.ModelProto:
        """A copy of ``model`` carrying this module's trained tensors."""
        tensors = {}
        for idx, wname, bname in self.names:
            layer = self.net[int(idx)]
            tensors[wname] = layer.weight.detach().numpy()
            tensors[bname] = layer.bias.detach().numpy()
        out = onnx.ModelProto()
        out.CopyFrom(model)
        for i, t in enumerate(out.graph.initializer):
            if t.name in tensors:
                out.graph.initializer[i].CopyFrom(numpy_helper.from_array(tensors[t.name].astype(np.float32), t.name))
        return out


def bf16_fast() -> bool:
    """Whether this CPU computes bfloat16 in hardware (AVX-512 BF16 or AMX): there a classifier's fine-tuning
    under bfloat16 autocast takes about 0.6 of its float32 time (docs/deck.md); elsewhere bfloat16 is emulated,
    slower."""
    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    return any(getattr(torch.cpu, name, lambda: False)() for name in checks)


def finetune(
    model: onnx.ModelProto,
    crops: np.ndarray,
    labels: np.ndarray,
    epochs: int = 4,
    lr: float = 1e-3,
    seed: int = 0,
    bf16: bool = False,
) -> onnx.ModelProto:
    """Train every layer on ``crops`` (N, H, W, 3 uint8) with AdamW and a cosine schedule; ``bf16``: the
    forward and backward passes under bfloat16 autocast (the weights and the optimiser stay float32, and
    so does the ONNX model written back)."""
    torch.manual_seed(seed)
    net = OnnxNet(model)
    x = torch.from_numpy(crops).permute(0, 3, 1, 2).float() / 255
    y = torch.from_numpy(labels.astype(np.int64))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    batch = 128
    steps = epochs * ((len(y) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps, pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)

    def loss(xb: torch.Tensor, yb: torch.Tensor) -> torch.Tensor:
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            logits = net(xb)
        return loss_fn(logits.float(), yb)

    def losses():
        order = torch.randperm(len(y))
        for i in range(0, len(y), batch):
            idx = order[i : i + batch]
            xb = x[idx] * (0.8 + 0.4 * torch.rand(len(idx), 1, 1, 1))  # brightness, on top of the synthesis
            yield functools.partial(loss, xb, y[idx])

    return _train(net, model, opt, sched, epochs, losses)


def finetune_locator(
    model: onnx.ModelProto, data: dict[str, np.ndarray], epochs: int = 3, lr: float = 1e-3, seed: int = 0
) -> onnx.ModelProto:
    """Train every layer of the locator on strips (``loc_x``, ``loc_anchor``, ``loc_n``, ``loc_mask``)."""
    from referee_station.training.train import (  # the generic training's, not a copy
        locator_loss,
        locator_targets,
        photometric,
    )

    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = OnnxNet(model)
    n = len(data["loc_n"])
    if n == 0:
        raise ValueError("no strips to fine-tune the locator on")
    batch = min(16, n)  # a few frames' strips still make one batch
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=epochs * (n // batch), pct_start=0.15)

    def loss(idx: np.ndarray) -> torch.Tensor:
        x = torch.from_numpy(data["loc_x"][idx]).permute(0, 3, 1, 2).float() / 255
        heat, offset, has = locator_targets(data["loc_anchor"][idx], data["loc_n"][idx])
        masks = torch.from_numpy(data["loc_mask"][idx].astype(np.float32))
        return locator_loss(net(photometric(x, gen)), heat, offset, has, masks)

    def losses():
        order = torch.randperm(n, generator=gen).numpy()
        for i in range(0, n - batch + 1, batch):
            yield functools.partial(loss, np.sort(order[i : i + batch]))

    return _train(net, model, opt, sched, epochs, losses)


def _train(net, model: onnx.ModelProto, opt, sched, epochs: int, losses) -> onnx.ModelProto:
    """The loop both fine-tunes share: ``losses()`` yields one epoch of batch losses to compute and step on."""
    net.train()
    for _ in range(epochs):
        for batch_loss in losses():
            loss = batch_loss()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
    net.eval()
    return net.to_onnx(model)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, required=True, help="the generic classifier.onnx or locator.onnx")
    data_arg = parser.add_mutually_exclusive_group(required=True)
    data_arg.add_argument("--crops", type=Path, help="classifier: .npz with crops (N, H, W, 3) and labels")
    data_arg.add_argument("--strips", type=Path, help="locator: .npz with loc_x, loc_anchor, loc_n, loc_mask")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--float32", action="store_true", help="a classifier in float32 even where bfloat16 is fast")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    start = time.monotonic()
    data = dict(np.load(args.crops or args.strips))
    bf16 = bool(args.crops) and not args.float32 and bf16_fast()
    if args.crops:
        tuned, what = finetune(onnx.load(args.model), data["crops"], data["labels"], args.epochs, bf16=bf16), "crops"
    else:
        tuned, what = finetune_locator(onnx.load(args.model), data, args.epochs), "strips"
    onnx.save(tuned, args.out)
    count = len(data["labels"] if args.crops else data["loc_n"])
    precision = "bfloat16" if bf16 else "float32"
    print(f"{args.out}: {count} {what}, {args.epochs} epochs in {precision}, {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
