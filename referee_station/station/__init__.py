"""The station at a real table: one orchestrator (capture → reader → tracker → input merge → referee →
log → devices → hall) that ``run``, the station console, the demo and the tests share, and what a real
table needs around it: the match setup, the deals started from what the camera sees, camera health."""
