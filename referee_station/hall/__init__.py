"""A hall of many tables (DESIGN.md "Many tables"): table stations publish their log over MQTT
(Mosquitto), the head referee's console subscribes, keeps the shared PostgreSQL register and sends
rulings back. A transport and a register only: no rules are decided here.

Modules: ``topics`` (names and the message envelope), ``broker_url`` (connecting a paho client),
``outbox`` (the station's SQLite send state), ``publisher`` (station side), ``migrations`` and
``register`` (PostgreSQL), ``results`` (CSV for the scoring), ``subscriber`` (head side), ``auth``
(referee logins, broker users and ACLs), ``broker`` and ``localpg`` (private servers for tests and
development).
"""
