"""A match setup names what is wrong with it, and becomes the log's match line (EVENTS.md)."""

from __future__ import annotations

import json

import pytest

from referee_station.station.setup import MatchSetup, SetupError


def test_a_setup_file_becomes_the_match_line(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"sides": {"EW": "南京", "NS": "苏州"}, "rules": {"length_deals": 4}, "leader": "N",
                                "levels": {"EW": "5", "NS": "2"}}), encoding="utf-8")  # fmt: skip
    setup = MatchSetup.load(path)
    record = setup.match_record(0.0)
    assert record.sides == {"EW": "南京", "NS": "苏州"} and record.rules == {"length_deals": 4}
    assert record.levels == {"EW": "5", "NS": "2"} and setup.leader == "N"
    assert MatchSetup.from_mapping(setup.to_json()) == setup


@pytest.mark.parametrize(
    "data, says",
    [
        ({"sides": {"EW": "a"}, "leader": "E"}, "'sides' must name both EW and NS"),
        ({"sides": {"EW": "a", "NS": "b"}, "leader": "X"}, "'leader' must be one of E S W N"),
        ({"sides": {"EW": "a", "NS": "b"}, "leader": "E", "rules": {"speed": 3}}, "unknown setting 'speed'"),
        ({"sides": {"EW": "a", "NS": "b"}, "leader": "E", "colour": 1}, "unknown field(s) colour"),
        ({"sides": {"EW": "a", "NS": "b"}, "leader": "E", "levels": {"EW": "1"}}, "levels.EW"),
        ([1, 2], "expected a JSON object"),
    ],
)
def test_a_bad_setup_says_what_is_wrong(data, says):
    with pytest.raises(SetupError) as err:
        MatchSetup.from_mapping(data)
    assert says in str(err.value)


def test_a_setup_file_that_is_not_json_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{sides", encoding="utf-8")
    with pytest.raises(SetupError, match=r"broken\.json"):
        MatchSetup.load(path)
