"""A worker whose accepts the service refuses: a token not (or no longer) configured, a role or type it lacks."""
import threading
import time
import unittest

from jobfoundry import Client, Worker, _accepts

from .stub import NO_HEADERS, StubService, await_true, job, leased, results

TYPE = {"type": "t", "activityTimeout": 0.3, "maxAttempts": 25, "counts": {}}
UNAUTHORIZED = {"type": "tag:jobfoundry.io,2026:problem/unauthorized", "status": 401,
                "detail": "a valid token is required"}


class AcceptRefusalTest(unittest.TestCase):
    def test_a_refusal_is_an_error_said_once_asked_again_slowly_and_its_end_is_said_too(self):
        token_configured = threading.Event()
        served = threading.Event()
        handled = threading.Event()

        def answer(r):
            if r.path == "/v1/types/t":
                return 200, TYPE, NO_HEADERS
            if r.path == "/v1/accept":
                if not token_configured.is_set():
                    return 401, UNAUTHORIZED, NO_HEADERS
                if served.is_set():
                    threading.Event().wait(0.05)
                    return 204, None, NO_HEADERS
                served.set()
                return 200, leased("t", "a"), NO_HEADERS
            if r.path in ("/v1/finish", "/v1/heartbeat"):
                return 200, results(r.json()), NO_HEADERS
            return 200, job("t", "a", "finished"), NO_HEADERS

        with StubService(answer) as stub, Client(stub.url) as client, \
                self.assertLogs("jobfoundry.worker", "INFO") as logs:
            worker = Worker(client, lambda ctx: handled.set(), "t", accept_wait=0.1)
            worker._refused_again = 0.2
            worker.start()
            await_true(lambda: len(stub.paths("/v1/accept")) >= 4, 10, "accepts asked again")

            errors = [r for r in logs.records if r.levelname == "ERROR"]
            self.assertEqual(1, len(errors), logs.output)
            self.assertIn("a valid token is required", errors[0].getMessage())
            self.assertIn("every 0.2 s", errors[0].getMessage())
            self.assertFalse([r for r in logs.records if r.levelname == "WARNING"], "no warning per try")

            token_configured.set()
            self.assertTrue(handled.wait(10), "accepts work again once the service takes the token")
            await_true(lambda: any(r.levelname == "INFO" and r.getMessage().startswith("accepts are answered again")
                                   for r in logs.records), 5, "the end of the refusal logged")
            worker.shutdown(5)

    def test_a_shutdown_does_not_wait_out_the_pause_after_a_refusal(self):
        def answer(r):
            return 403, {"type": "tag:jobfoundry.io,2026:problem/forbidden", "status": 403}, NO_HEADERS

        with StubService(answer) as stub, Client(stub.url) as client, self.assertLogs("jobfoundry.worker", "ERROR"):
            worker = Worker(client, lambda ctx: None, "t").start()
            await_true(lambda: stub.paths("/v1/accept"), 10, "an accept")
            started = time.monotonic()
            self.assertTrue(worker.shutdown(5))
            self.assertLess(time.monotonic() - started, _accepts.REFUSED_AGAIN / 2, "the shutdown cut the pause short")
            self.assertEqual(1, len(stub.paths("/v1/accept")))


if __name__ == "__main__":
    unittest.main()
