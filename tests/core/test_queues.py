"""``drain`` takes what is queued now, in order, and never waits."""

import queue
import threading

from referee_station.core.queues import drain


def test_drain_takes_everything_in_order_and_leaves_the_queue_empty() -> None:
    q: queue.Queue[int] = queue.Queue()
    for i in range(5):
        q.put(i)
    assert drain(q) == [0, 1, 2, 3, 4]
    assert q.empty()
    assert drain(q) == []


def test_drain_does_not_wait_for_a_producer() -> None:
    q: queue.Queue[str] = queue.Queue()
    started = threading.Event()
    release = threading.Event()

    def producer() -> None:
        q.put("first")
        started.set()
        release.wait(5)
        q.put("second")

    worker = threading.Thread(target=producer)
    worker.start()
    started.wait(5)
    assert drain(q) == ["first"]  # returns at once, though the producer will put more
    release.set()
    worker.join()
    assert drain(q) == ["second"]
