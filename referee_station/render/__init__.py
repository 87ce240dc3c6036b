"""Synthetic overhead frames of the standard cloth, with ground truth, for training and testing the reader.

``artwork`` rasterises real card designs installed from Debian (``gnome-cards-data``), ``scene``
describes what lies on the table, ``render`` turns a scene into a camera frame.
"""
