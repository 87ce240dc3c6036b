"""The card reader's shipped ONNX networks (package data, read through ``referee_station.resources``) and
their model card (``card`` writes ``MODEL_CARD.md``; no torch). Training is ``referee_station.training``.
"""
