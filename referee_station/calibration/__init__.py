"""The cloth's data, shipped as package data: its layout (``cloth.json``, read by ``referee_station.vision.layout``) and
the printable marker sheet (``markers.png``). No code lives here; ``referee_station.resources`` finds it.
"""
