"""The simulation's pictures: synthetic overhead frames of the standard cloth, with ground truth, the video
of a simulated deal, the drawn test decks and the rendered training data (no torch).

``artwork`` rasterises real card designs installed from Debian (``gnome-cards-data``), ``scene``
describes what lies on the table, ``render`` turns a scene into a camera frame, ``video`` a simulated log
into frames, ``drawn`` and ``drawn_sans`` two designs no training design resembles, ``dataset`` and
``crops`` the training data. Apart from the station's runtime (``referee_station.vision``), which never
draws a frame.
"""
