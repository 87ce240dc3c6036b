"""Deck registration: adapt the card reader to the one deck design an event plays with.

``profile`` (the DECK file format and loading it into a reader), ``photos`` (cut card faces out of
calibrated single-card photos), ``crops`` (synthesise index crops of those faces), ``finetune`` (train
the classifier on them; run by a Python with torch), ``register`` (the whole pipeline), ``mismatch``
(notice a profile that does not match the deck on the table), ``guided`` (the live capture state
machine), ``drawn`` and ``drawn_sans`` (two deck designs no training design resembles, rank over suit
and rank beside suit, for tests and the benchmark). The profile keeps the 54 faces, which the reader
compares with each card's visible part (``referee_station.vision.faces``).
"""
