"""Training of the card reader's two small networks, and the exported ONNX files the station runs.

``dataset`` renders training data, ``nets`` defines the networks, ``train`` trains, validates on the
held-out design and exports. Everything here except the ``.onnx`` files needs the ``[train]`` extra.
"""
