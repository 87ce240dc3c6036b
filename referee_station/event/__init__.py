"""The event (比赛) the tables belong to: pairs, rounds, pairings, results and standings
(seeds 003/004, R-MATCH-1…3). Models only, no Qt and no clock: every action carries its time.

- :mod:`.pairs`: the pairs, read from CSV;
- :mod:`.rules`: the event's configurable rules (rounds, round clock, lateness, forfeit and bye scores);
- :mod:`.scoring`: the 26-point table (R-MATCH-2a) and one pair's score in one round;
- :mod:`.clock`: the round clock as data, and whether a new deal may start (R-MATCH-1);
- :mod:`.pairing`: round 1 by sign-in order or drawn, Swiss in score groups, knockout;
- :mod:`.model`: the event rebuilt from its journal of actions (every change audited);
- :mod:`.standings`: the ranking with the R-MATCH-3 tie-breaks;
- :mod:`.store`: the journal in SQLite;
- :mod:`.sheets`: pairing sheets, score sheets and standings as CSV and HTML (the PDF is drawn by
  ``referee_station.console.qt.event_pdf``).
"""
