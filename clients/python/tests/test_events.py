"""Server-Sent Events as the service writes them, and as the format allows them, read into job events."""
import json
import threading
import unittest

from jobfoundry import JobfoundryError
from jobfoundry import JobEvents

PENDING = {"type": "email", "id": "j1", "state": "pending", "attempt": 0}


class Lines:
    """A stream's lines as the transport hands them over: readline() until None, close() from any thread."""

    def __init__(self, *items, then=None):
        self.items = list(items)
        self.then = then  # what readline does once the items are read: None ends the stream
        self.closed = False

    def readline(self):
        if self.closed:
            return None
        if self.items:
            return self.items.pop(0)
        if self.then is not None:
            return self.then(self)
        return None

    def close(self):
        self.closed = True


class EventsTest(unittest.TestCase):
    def test_states_then_the_removal_which_ends_the_stream(self):
        source = Lines("event: state", "id: 1", "data: " + json.dumps(PENDING), "",
                               ":keep-alive", "",
                               "event:state", "data:" + json.dumps(dict(PENDING, state="running")), "",
                               "event: removed", 'data: {"type":"email","id":"j1"}', "",
                               "event: state", "data: " + json.dumps(PENDING), "")
        events = list(JobEvents(source))
        self.assertEqual(["pending", "running"], [e.job.state for e in events[:2]])
        self.assertEqual((True, "email", "j1"), (events[2].removed, events[2].type, events[2].id))
        self.assertEqual(3, len(events), "nothing is read past the removal")
        self.assertTrue(source.closed, "the connection is closed after the removal")

    def test_data_over_several_lines_is_joined_and_unknown_kinds_are_skipped(self):
        source = Lines("event: progress", "data: {}", "",
                          "event: state", 'data: {"type":"email",', 'data: "id":"j1","state":"finished",',
                          'data: "result":"succeeded"}', "")
        events = list(JobEvents(source))
        self.assertEqual(["succeeded"], [e.job.result for e in events])
        self.assertTrue(source.closed, "the connection is closed at the end")

    def test_an_event_that_is_not_json_or_not_a_job_fails_clearly(self):
        for data in ("<html>", "[]", '{"type":"t"}'):
            for kind in ("state", "removed"):
                source = Lines("event: " + kind, "data: " + data, "")
                with self.assertRaises(JobfoundryError, msg=f"{kind} {data}"):
                    list(JobEvents(source))
                self.assertTrue(source.closed)

    def test_closing_before_reading_closes_the_connection(self):
        source = Lines("event: state", "data: " + json.dumps(PENDING), "")
        with JobEvents(source) as events:
            pass
        self.assertTrue(source.closed)
        self.assertEqual([], list(events))

    def test_a_close_from_another_thread_ends_a_waiting_reader_quietly(self):
        closed_by_other = threading.Event()

        def wait_for_close(source):
            closed_by_other.wait(10)
            if not source.closed:
                raise AssertionError("the stream was not closed")
            return None  # what the transport's stream answers once closed
        source = Lines("event: state", "data: " + json.dumps(PENDING), "", then=wait_for_close)
        events = JobEvents(source)
        self.assertEqual("pending", next(events).job.state)
        threading.Timer(0.2, lambda: (events.close(), closed_by_other.set())).start()
        self.assertEqual([], list(events), "no more events, and no failure")
        self.assertTrue(source.closed)


if __name__ == "__main__":
    unittest.main()
