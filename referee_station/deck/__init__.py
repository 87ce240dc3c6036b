"""Deck registration: adapt the card reader to the one deck design an event plays with.

``profile`` (the DECK file format and loading it into a reader), ``photos`` (cut card faces out of
calibrated single-card photos), ``crops`` (synthesise index crops of those faces), ``register`` (the whole
pipeline; the fine-tuning runs as ``referee_station.training.finetune`` in a Python with torch),
``mismatch`` (notice a profile that does not match the deck on the table), ``guided`` (the live capture
state machine). The profile keeps the 54 faces, which the reader compares with each card's visible part
(``referee_station.vision.faces``).
"""
