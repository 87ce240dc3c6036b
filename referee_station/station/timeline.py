"""The station's steps as terminal lines (``run``, ``station --headless``): what the camera saw, the
inputs made here (deal starts, tributes, inferred passes), flags, results and health notices."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TextIO

from referee_station.log.timeline import describe
from referee_station.station.orchestrator import Source, Step
from referee_station.table.events import DealEnd, Flag, MatchEnd, PlayCards, Record


def _what(event: Record) -> str:
    if isinstance(event, PlayCards):
        conf = f" ({event.confidence:.2f})" if event.confidence else ""
        return f"play {event.seat} {' '.join(map(str, event.cards))}{conf}"
    return event.to_line()


@dataclass
class TerminalTimeline:
    """Prints steps; counts flags and notices for the exit code and the summary."""

    out: TextIO
    quiet: bool = False
    flags: int = 0
    deck_warnings: int = 0
    """The deck profile does not match the cards on the table (``referee_station.deck.mismatch``)."""
    results: list[Record] = field(default_factory=list)

    def __call__(self, step: Step) -> None:
        for notice in step.notices:
            self.deck_warnings += notice.unit == "deck"
            print(f"{notice.t:9.2f}  WARNING {notice.text}", file=self.out, flush=True)
        for fed in step.fed:
            if not self.quiet and fed.source in (Source.CAMERA, Source.STATION, Source.HALL):
                print(f"{fed.event.t:9.2f}  {fed.source.value:<7} {_what(fed.event)}", file=self.out, flush=True)
            for output in fed.outputs:
                if isinstance(output, Flag):
                    self.flags += 1
                    print(f"{output.t:9.2f}  FLAG    {describe(output)}", file=self.out, flush=True)
                elif isinstance(output, (DealEnd, MatchEnd)):
                    self.results.append(output)
                    print(f"{output.t:9.2f}  RESULT  {describe(output)}", file=self.out, flush=True)
