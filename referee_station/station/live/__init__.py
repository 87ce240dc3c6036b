"""The station's live orchestration, without Qt: table feeds, one runner per table (its own
``TableReferee``), the hall's pacing at ``--speed``, the head console's feed and desk. The headless demo
(``referee_station.console.headless``) drives it from the main thread; the Qt console drives it from a
worker thread and receives ``TableUpdate``s (``update``) by signal."""
