"""The table's event log: SQLite store (WAL), JSON Lines import/export, the station that persists
every fed event atomically, and replay (DESIGN.md "Storage"; EVENTS.md)."""
