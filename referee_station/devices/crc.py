"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), the frame checksum.

``binascii.crc_hqx`` computes exactly this polynomial in C, so the checksum costs next to nothing in
Python; the check value for ``b"123456789"`` is 0x29B1. Sixteen bits detect every error of up to three
bits and every burst of up to 16 bits in frames of our size (under 256 bytes), which is what a noisy
USB-serial cable produces; frames are short, so a CRC-32 would only add bytes.
"""

from __future__ import annotations

import binascii

CRC_INIT = 0xFFFF
CRC_SIZE = 2


def crc16(data: bytes | bytearray | memoryview, value: int = CRC_INIT) -> int:
    """The CRC-16/CCITT-FALSE of ``data``; pass a previous result as ``value`` to continue over more bytes."""
    return binascii.crc_hqx(data, value)
