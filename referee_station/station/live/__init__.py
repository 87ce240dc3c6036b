"""The live side of the console, without Qt: table feeds, one runner per table (its own
``TableReferee``), and the hall's pacing at ``--speed``. The headless demo drives it from the main
thread; the Qt console drives it from a worker thread and receives ``TableUpdate``s by signal."""
