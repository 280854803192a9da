"""Server-Sent Events as the service writes them, and as the format allows them, read into job events."""
import json
import unittest

from jobfoundry import JobfoundryError
from jobfoundry.client import _events

PENDING = {"type": "email", "id": "j1", "state": "pending", "attempt": 0}


def lines(*items):
    closed = []

    def generate():
        try:
            yield from items
        finally:
            closed.append(True)
    return generate(), closed


class EventsTest(unittest.TestCase):
    def test_states_then_the_removal_which_ends_the_stream(self):
        source, closed = lines("event: state", "id: 1", "data: " + json.dumps(PENDING), "",
                               ":keep-alive", "",
                               "event:state", "data:" + json.dumps(dict(PENDING, state="running")), "",
                               "event: removed", 'data: {"type":"email","id":"j1"}', "",
                               "event: state", "data: " + json.dumps(PENDING), "")
        events = list(_events(source))
        self.assertEqual(["pending", "running"], [e.job.state for e in events[:2]])
        self.assertEqual((True, "email", "j1"), (events[2].removed, events[2].type, events[2].id))
        self.assertEqual(3, len(events), "nothing is read past the removal")
        self.assertEqual([True], closed, "the connection's lines are closed")

    def test_data_over_several_lines_is_joined_and_unknown_kinds_are_skipped(self):
        source, _ = lines("event: progress", "data: {}", "",
                          "event: state", 'data: {"type":"email",', 'data: "id":"j1","state":"finished",',
                          'data: "result":"succeeded"}', "")
        events = list(_events(source))
        self.assertEqual(["succeeded"], [e.job.result for e in events])

    def test_an_event_that_is_not_json_fails_clearly(self):
        source, closed = lines("event: state", "data: <html>", "")
        with self.assertRaises(JobfoundryError):
            list(_events(source))
        self.assertEqual([True], closed)

    def test_closing_the_events_closes_the_lines(self):
        source, closed = lines("event: state", "data: " + json.dumps(PENDING), "", ":keep-alive")
        events = _events(source)
        next(events)
        events.close()
        self.assertEqual([True], closed)


if __name__ == "__main__":
    unittest.main()
