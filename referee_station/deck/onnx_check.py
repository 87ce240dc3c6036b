"""A look inside an ONNX file before onnxruntime gets it: well-formed protobuf, a graph, and every
tensor's data inside the file itself.

Why: onnxruntime resolves a tensor's *external data* (``data_location = EXTERNAL``, a file name in
``external_data``) against the working directory when it is given bytes, so a deck profile could
make the station load any file it can read as weights. The walk follows the ONNX schema's message
fields that can hold tensors (graph initializers, node attributes, subgraphs, functions); no
``onnx`` package is needed.
"""

from __future__ import annotations

from collections.abc import Iterator

# field numbers of onnx.proto3 (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto ...)
_MODEL_GRAPH, _MODEL_FUNCTIONS = 7, 25
_GRAPH_NODE, _GRAPH_INITIALIZER, _GRAPH_SPARSE = 1, 5, 15
_NODE_ATTRIBUTE = 5
_FUNCTION_NODE = 7
_ATTR_TENSOR, _ATTR_GRAPH, _ATTR_TENSORS, _ATTR_GRAPHS, _ATTR_SPARSE, _ATTR_SPARSES = 5, 6, 10, 11, 22, 23
_SPARSE_VALUES, _SPARSE_INDICES = 1, 2
_TENSOR_EXTERNAL_DATA, _TENSOR_DATA_LOCATION = 13, 14
_EXTERNAL = 1
_MAX_DEPTH = 64


class OnnxError(ValueError):
    """The bytes are not a self-contained ONNX model."""


def check_onnx(data: bytes, name: str) -> None:
    """Raise :class:`OnnxError` naming ``name`` unless ``data`` is a protobuf ModelProto with a graph
    whose tensors all keep their data inside the file."""
    try:
        graphs = [value for number, value in _fields(data) if number == _MODEL_GRAPH]
        if not graphs or not all(isinstance(graph, bytes) for graph in graphs):
            raise OnnxError("no graph")
        for number, value in _fields(data):
            if number == _MODEL_GRAPH:
                _graph(_bytes(value), 0)
            elif number == _MODEL_FUNCTIONS:
                for field, node in _fields(_bytes(value)):
                    if field == _FUNCTION_NODE:
                        _node(_bytes(node), 1)
    except OnnxError as err:
        raise OnnxError(f"{name} is not a self-contained ONNX model: {err}") from None


def _graph(data: bytes, depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise OnnxError(f"subgraphs nested deeper than {_MAX_DEPTH}")
    for number, value in _fields(data):
        if number == _GRAPH_NODE:
            _node(_bytes(value), depth)
        elif number == _GRAPH_INITIALIZER:
            _tensor(_bytes(value))
        elif number == _GRAPH_SPARSE:
            _sparse(_bytes(value))


def _node(data: bytes, depth: int) -> None:
    for number, value in _fields(data):
        if number != _NODE_ATTRIBUTE:
            continue
        for field, item in _fields(_bytes(value)):
            if field in (_ATTR_TENSOR, _ATTR_TENSORS):
                _tensor(_bytes(item))
            elif field in (_ATTR_GRAPH, _ATTR_GRAPHS):
                _graph(_bytes(item), depth + 1)
            elif field in (_ATTR_SPARSE, _ATTR_SPARSES):
                _sparse(_bytes(item))


def _sparse(data: bytes) -> None:
    for number, value in _fields(data):
        if number in (_SPARSE_VALUES, _SPARSE_INDICES):
            _tensor(_bytes(value))


def _tensor(data: bytes) -> None:
    for number, value in _fields(data):
        if number == _TENSOR_EXTERNAL_DATA or (number == _TENSOR_DATA_LOCATION and value == _EXTERNAL):
            raise OnnxError("a tensor names external data (a file outside the profile)")


def _bytes(value: int | bytes) -> bytes:
    if not isinstance(value, bytes):
        raise OnnxError("a message field holds a number")
    return value


def _fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """(field number, value) of one protobuf message: varints as int, length-delimited as bytes,
    fixed-width values as int. Anything malformed is an :class:`OnnxError`."""
    pos, end = 0, len(data)
    while pos < end:
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise OnnxError("field number 0")
        if wire == 0:
            value, pos = _varint(data, pos)
        elif wire == 1 or wire == 5:
            size = 8 if wire == 1 else 4
            if pos + size > end:
                raise OnnxError("truncated")
            value, pos = int.from_bytes(data[pos : pos + size], "little"), pos + size
        elif wire == 2:
            size, pos = _varint(data, pos)
            if pos + size > end:
                raise OnnxError("truncated")
            value, pos = data[pos : pos + size], pos + size
        else:
            raise OnnxError(f"wire type {wire}")
        yield number, value


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise OnnxError("truncated or overlong varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, pos
