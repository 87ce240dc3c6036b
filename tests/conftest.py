"""Shared for every test: the referee runs strict (a bug in it raises out of ``feed`` instead of hiding
as a ``strange_event`` flag; the station flags it and logs the traceback, so a table plays on), and a
Python with torch (training and a deck's fine-tuning run in one; the station has none)."""

from __future__ import annotations

import pytest

from referee_station.deck.register import RegistrationError, train_python
from referee_station.table.referee import TableReferee

TableReferee.strict = True


@pytest.fixture
def python() -> str:
    """The Python with torch that runs training and fine-tuning; the test is skipped where there is none."""
    try:
        return train_python()
    except RegistrationError as err:
        pytest.skip(str(err))
