"""Every test runs the referee strict: a bug in it raises out of ``feed`` instead of hiding as a
``strange_event`` flag (the station flags it and logs the traceback, so a table plays on)."""

from referee_station.table.referee import TableReferee

TableReferee.strict = True
