"""The exceptions of ``devices``, one class per kind of failure.

::

    DeviceError                                  anything that went wrong with the table hardware
     ├── ProtocolError (also ValueError)         a frame or message that breaks PROTOCOL.md, or a rejected command
     ├── DeviceTimeoutError (also TimeoutError)  no acknowledgement after every retransmission, or a silent link
     └── PortUnavailableError (also ConnectionError)
                                                 the serial port cannot be opened, vanished, or the link is not up

``serial.SerialException`` never leaves this package: the link translates it at the boundary with
``raise PortUnavailableError(...) from err`` (the python-can rule, ``can/exceptions.py``).
"""

from __future__ import annotations


class DeviceError(Exception):
    """Base of every error raised by the table hardware drivers."""


class ProtocolError(DeviceError, ValueError):
    """Bytes or a message that do not follow the protocol (bad payload, unknown kind, rejected command)."""


class DeviceTimeoutError(DeviceError, TimeoutError):
    """A unit did not acknowledge a command after all retransmissions, or stopped sending heartbeats."""


class PortUnavailableError(DeviceError, ConnectionError):
    """The port cannot be opened or vanished (unplugged), or the link is not connected right now."""
