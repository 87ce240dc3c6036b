"""Adapt the generic classifier to one deck without torch: refit its last layer on that deck's crops.

Why this and not fine-tuning the whole net: the station has no torch (``DESIGN.md``), and the conv body
trained on 17 designs already separates rank and suit shapes well; what fails on an unseen design is
the final linear map from those features to classes. Refitting that map (a 1024 → 55 softmax
regression, started from the shipped weights) on a few thousand synthetic crops of the registered
deck is a convex problem numpy solves in a minute or two on the station's CPU, and the result is the
shipped ONNX graph with two weight tensors swapped, so the reader runs it exactly like the generic model.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper


def _head(model: onnx.ModelProto) -> onnx.NodeProto:
    """The graph's last node: the Gemm producing the class logits from the flattened features."""
    node = model.graph.node[-1]
    if node.op_type != "Gemm" or node.output[0] != model.graph.output[0].name:
        raise ValueError("classifier graph does not end in a Gemm head")
    return node


def _trans_b(node: onnx.NodeProto) -> bool:
    return any(a.name == "transB" and a.i == 1 for a in node.attribute)


def head_weights(model: onnx.ModelProto) -> tuple[np.ndarray, np.ndarray]:
    """The head's weights as (features, classes) and its bias (classes)."""
    node = _head(model)
    init = {t.name: t for t in model.graph.initializer}
    w = numpy_helper.to_array(init[node.input[1]]).astype(np.float64)
    b = numpy_helper.to_array(init[node.input[2]]).astype(np.float64)
    return (w.T if _trans_b(node) else w), b


def feature_model(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy of the classifier that also outputs the head's input features (``features``)."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    name = _head(out).input[0]
    out.graph.node.append(helper.make_node("Identity", [name], ["features"]))
    out.graph.output.append(helper.make_tensor_value_info("features", onnx.TensorProto.FLOAT, None))
    return out


def with_head(model: onnx.ModelProto, w: np.ndarray, b: np.ndarray) -> onnx.ModelProto:
    """A copy of the classifier with head weights ``w`` (features, classes) and bias ``b``."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    node = _head(out)
    new = {node.input[1]: (w.T if _trans_b(node) else w), node.input[2]: b}
    for i, t in enumerate(out.graph.initializer):
        if t.name in new:
            out.graph.initializer[i].CopyFrom(numpy_helper.from_array(new[t.name].astype(np.float32), t.name))
    return out


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def fit_head(
    features: np.ndarray,
    labels: np.ndarray,
    w0: np.ndarray,
    b0: np.ndarray,
    steps: int = 300,
    lr: float = 0.5,
    l2: float = 1e-4,
    smoothing: float = 0.02,
) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression from the shipped head (Adam, full batch, features standardised inside).

    Starting from the shipped weights keeps what the generic head knew (the "none" class above all) and
    makes the fit a refinement; ``l2`` pulls towards the start, not towards zero, for the same reason.
    """
    n, k = len(labels), w0.shape[1]
    target = np.full((n, k), smoothing / (k - 1))
    target[np.arange(n), labels] = 1 - smoothing
    scale = features.std(0).mean() + 1e-6  # one scalar: keeps the map linear in the original features
    x = features / scale
    w, b = w0 * scale, b0.copy()
    start = w.copy()
    mw, vw, mb, vb = (np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b))
    for t in range(1, steps + 1):
        g = (softmax(x @ w + b) - target) / n
        gw = x.T @ g + l2 * (w - start)
        gb = g.sum(0)
        mw, vw = 0.9 * mw + 0.1 * gw, 0.999 * vw + 0.001 * gw**2
        mb, vb = 0.9 * mb + 0.1 * gb, 0.999 * vb + 0.001 * gb**2
        step = lr * 0.5 * (1 + np.cos(np.pi * t / steps)) / 10
        w -= step * (mw / (1 - 0.9**t)) / (np.sqrt(vw / (1 - 0.999**t)) + 1e-8)
        b -= step * (mb / (1 - 0.9**t)) / (np.sqrt(vb / (1 - 0.999**t)) + 1e-8)
    return w / scale, b
