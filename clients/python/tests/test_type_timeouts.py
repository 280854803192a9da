import threading
import time
import unittest

from jobfoundry import Client
from jobfoundry._loops import TypeTimeouts

from .stub import NO_HEADERS, StubService, await_true


class TypeTimeoutsTest(unittest.TestCase):
    def test_a_changed_timeout_is_picked_up_without_holding_up_the_caller(self):
        state = {"timeout": 0.3, "slow": False}
        slow_answer = threading.Event()

        def answer(r):
            if state["slow"]:
                slow_answer.wait(10)
            return 200, {"type": "t", "activityTimeout": state["timeout"], "maxAttempts": 25}, NO_HEADERS

        with StubService(answer) as stub, Client(stub.url) as client:
            timeouts = TypeTimeouts(client, refresh=0.05)
            self.assertEqual(0.3, timeouts.of("t"))
            # A slow service: held until the caller has been timed, not for a fixed second, so that a caller that
            # waited would take 10 s and one that did not is well under the bound, however busy the machine.
            state.update(timeout=2, slow=True)
            time.sleep(0.06)
            started = time.monotonic()
            self.assertEqual(0.3, timeouts.of("t"), "the known value while it is read again")
            self.assertLess(time.monotonic() - started, 5, "the caller did not wait")
            slow_answer.set()
            await_true(lambda: timeouts.of("t") == 2, 10, "the new timeout")

    def test_an_unknown_timeout_is_taken_as_the_shortest_until_the_service_answers(self):
        with StubService(lambda r: (400, {"detail": "no"}, NO_HEADERS)) as stub, Client(stub.url) as client:
            self.assertEqual(TypeTimeouts.SHORTEST, TypeTimeouts(client).of("t"))


if __name__ == "__main__":
    unittest.main()
