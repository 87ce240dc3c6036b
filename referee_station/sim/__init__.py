"""The match simulator: seeded deals, bots on ``legal_moves``, human timings, injected violations
with their ground truth (DESIGN.md layout). Independent of the referee: it computes turn order,
tricks, tribute and levels itself, so the referee can be checked against it."""
