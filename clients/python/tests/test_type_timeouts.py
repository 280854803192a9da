import time
import unittest

from jobfoundry import Client
from jobfoundry._loops import TypeTimeouts

from .stub import NO_HEADERS, StubService, await_true


class TypeTimeoutsTest(unittest.TestCase):
    def test_a_changed_timeout_is_picked_up_without_holding_up_the_caller(self):
        state = {"timeout": 0.3, "delay": 0.0}

        def answer(r):
            time.sleep(state["delay"])
            return 200, {"type": "t", "activityTimeout": state["timeout"], "maxAttempts": 25}, NO_HEADERS

        with StubService(answer) as stub, Client(stub.url) as client:
            timeouts = TypeTimeouts(client, refresh=0.05)
            self.assertEqual(0.3, timeouts.of("t"))
            state.update(timeout=2, delay=1.0)  # a slow service
            time.sleep(0.06)
            started = time.monotonic()
            self.assertEqual(0.3, timeouts.of("t"), "the known value while it is read again")
            self.assertLess(time.monotonic() - started, 0.5, "the caller did not wait")
            await_true(lambda: timeouts.of("t") == 2, 10, "the new timeout")

    def test_an_unknown_timeout_is_taken_as_the_shortest_until_the_service_answers(self):
        with StubService(lambda r: (400, {"detail": "no"}, NO_HEADERS)) as stub, Client(stub.url) as client:
            self.assertEqual(TypeTimeouts.SHORTEST, TypeTimeouts(client).of("t"))


if __name__ == "__main__":
    unittest.main()
