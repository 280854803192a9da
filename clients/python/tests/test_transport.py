import json
import socket
import threading
import time
import unittest
from datetime import datetime, timezone

from jobfoundry import (Client, HaltError, Heartbeat, Identity, JobfoundryError, NewJob, ProblemError,
                        RepeatPreview, RetryPolicy)

from .stub import NO_HEADERS, StubService, halt_problem, job

FAST = RetryPolicy(5, 0.01, 0.05)
UNAVAILABLE = {"type": "tag:jobfoundry.io,2026:problem/store-unavailable", "title": "Store unavailable",
               "status": 503, "detail": "the store did not answer in time"}


class TransportTest(unittest.TestCase):
    def test_a_503_is_retried_with_backoff_until_the_service_answers(self):
        calls = []

        def answer(r):
            calls.append(r)
            return (503, UNAVAILABLE, NO_HEADERS) if len(calls) <= 2 else (200, job("t", "a"), NO_HEADERS)

        with StubService(answer) as stub:
            with Client(stub.url, retry=FAST) as client:
                self.assertEqual("a", client.get("t", "a").id)
            self.assertEqual(3, len(stub.requests))

    def test_a_body_json_cannot_carry_is_refused_before_it_is_sent(self):
        with StubService(lambda r: (201, job("t", "a"), NO_HEADERS)) as stub:
            with Client(stub.url, retry=FAST) as client:
                for data in ({"k": float("nan")}, {"k": float("inf")}, {"when": datetime.now(timezone.utc)}):
                    with self.assertRaises(JobfoundryError) as refused:
                        client.create("t", data=data)
                    self.assertIn("cannot be sent as JSON", str(refused.exception))
            self.assertEqual([], stub.requests, "nothing was sent")

    def test_a_wait_repeated_after_a_503_asks_for_what_is_left_of_it(self):
        calls = []

        def answer(r):
            calls.append((time.monotonic(), r))
            if len(calls) == 1:
                time.sleep(0.5)  # the service took a while to say it was unavailable
                return 503, UNAVAILABLE, NO_HEADERS
            return 200, job("t", "a", "running"), NO_HEADERS

        with StubService(answer) as stub:
            with Client(stub.url, retry=FAST) as client:
                client.wait_for("t", "a", "finished", 2.0)
        asked = [int(r.path.split("timeout=")[1]) for _, r in calls[:2]]
        self.assertGreaterEqual(asked[0], 1900)
        self.assertLessEqual(asked[1], 1550, f"the repeat asked for the whole wait again: {asked}")

    def test_retry_after_is_honoured_up_to_the_cap(self):
        calls = []

        def answer(r):
            calls.append(r)
            if len(calls) == 1:
                return 503, UNAVAILABLE, {"Retry-After": "1"}
            return 200, job("t", "a"), NO_HEADERS

        with StubService(answer) as stub:
            start = time.monotonic()
            with Client(stub.url, retry=RetryPolicy(3, 0.001, 0.4)) as client:
                client.get("t", "a")
            # Without Retry-After the wait would be about a millisecond; the cap grants 0.4 s of the asked 1 s.
            self.assertGreaterEqual(time.monotonic() - start, 0.4)

    def test_persistent_503_ends_as_a_problem_after_the_last_attempt(self):
        with StubService(lambda r: (503, UNAVAILABLE, NO_HEADERS)) as stub:
            with Client(stub.url, retry=FAST) as client, self.assertRaises(ProblemError) as caught:
                client.cancel("t", "a")
            self.assertEqual(503, caught.exception.status)
            self.assertEqual("the store did not answer in time", caught.exception.detail)
            self.assertEqual(5, len(stub.requests))

    def test_a_create_without_id_is_not_repeated_after_a_503(self):
        with StubService(lambda r: (503, UNAVAILABLE, NO_HEADERS)) as stub:
            client = Client(stub.url, retry=FAST)
            self.addCleanup(client.close)
            with self.assertRaises(ProblemError):
                client.create("t")
            self.assertEqual(1, len(stub.requests), "a repeated POST could add a second job")
            with self.assertRaises(ProblemError):
                client.put("t", "a")
            self.assertEqual(1 + 5, len(stub.requests), "a PUT names its job: safe to repeat")

    def test_bulk_actions_are_not_repeated_after_a_503(self):
        with StubService(lambda r: (503, UNAVAILABLE, NO_HEADERS)) as stub:
            client = Client(stub.url, retry=FAST)
            self.addCleanup(client.close)
            with self.assertRaises(ProblemError):
                client.operations.bulk("remove", "t", limit=100)
            self.assertEqual(1, len(stub.requests), "a repeat could change more jobs")
            with self.assertRaises(ProblemError):
                client.operations.pause("t")
            self.assertEqual(1 + 5, len(stub.requests), "pausing twice is pausing: safe to repeat")

    def test_puts_resubmits_and_named_batches_are_repeated_under_one_key_per_call(self):
        # Each may have made a job pending that a worker took before the repeat: the service recognizes the
        # repeat by the call's key, so the same key goes with every repeat, and a new one with the next call.
        calls = []

        def answer(r):
            calls.append(r)
            if len(calls) % 3:
                return 503, UNAVAILABLE, NO_HEADERS
            if r.path == "/v1/jobs":
                return 200, {"jobs": [{"status": 200, "job": job("t", "a", "running")}]}, NO_HEADERS
            return 200, job("t", "a", "running"), NO_HEADERS

        with StubService(answer) as stub:
            with Client(stub.url, retry=FAST) as client:
                client.put("t", "a")
                client.put("t", "a")
                client.resubmit("t", "a")
                client.create_batch([NewJob("t", "a")])
            keys = [r.headers.get("idempotency-key") for r in stub.requests]
            self.assertEqual(12, len(keys))
            for call in range(4):
                key = keys[3 * call]
                self.assertRegex(key or "", r"^[0-9a-f-]{36}$")
                self.assertEqual([key] * 3, keys[3 * call:3 * call + 3], "one key per call")
            self.assertEqual(4, len(set(keys)), "a new key for each call")

    def test_a_batch_with_an_item_without_id_is_sent_without_a_key_and_not_repeated(self):
        with StubService(lambda r: (503, UNAVAILABLE, NO_HEADERS)) as stub:
            with Client(stub.url, retry=FAST) as client, self.assertRaises(ProblemError):
                client.create_batch([NewJob("t", "a"), NewJob("t", None)])
            self.assertEqual(1, len(stub.requests))
            self.assertNotIn("idempotency-key", stub.requests[0].headers)

    def test_a_repeat_preview_and_me_are_repeated_after_a_503(self):
        me = {"name": "email-team", "roles": ["viewer"], "types": ["email*", "sms"]}
        preview = {"normalized": "DAILY", "next": ["2026-03-02T00:00:00Z"]}

        def answer(request):
            if len(stub.requests) % 2 == 1:
                return 503, UNAVAILABLE, NO_HEADERS
            return 200, me if request.path == "/v1/me" else preview, NO_HEADERS

        with StubService(answer) as stub:
            with Client(stub.url, retry=FAST) as client:
                at = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
                self.assertEqual(RepeatPreview("DAILY", [datetime(2026, 3, 2, tzinfo=timezone.utc)]),
                                 client.preview_repeat("daily", at=at))
                self.assertEqual({"repeat": "daily", "count": 1, "scheduledAt": "2026-03-01T10:00:00Z",
                                  "startedAt": "2026-03-01T10:00:00Z", "finishedAt": "2026-03-01T10:00:00Z"},
                                 stub.requests[1].json())
                self.assertEqual(Identity("email-team", ["viewer"], ["email*", "sms"]), client.operations.me())
            self.assertEqual(4, len(stub.requests))

    def test_a_call_the_server_read_before_it_closed_is_not_sent_again_unless_it_may_go_twice(self):
        # The server answers a GET on a kept-alive connection, then reads the next request whole and closes without
        # answering, as a crashing or restarting service does: nothing tells that apart from an idle close.
        posts = []
        listener = socket.create_server(("127.0.0.1", 0))
        self.addCleanup(listener.close)

        def read_request(conn):
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return None
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            while len(body) < length:
                body += conn.recv(65536)
            return head.split(b" ")[0].decode()

        def serve():
            while True:
                try:
                    conn, _ = listener.accept()
                except OSError:
                    return
                with conn:
                    while True:
                        method = read_request(conn)
                        if method is None:
                            break
                        if method != "GET":
                            posts.append(method)
                            break  # read, then closed without an answer
                        body = json.dumps(job("t", "a")).encode()
                        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                                     + str(len(body)).encode() + b"\r\n\r\n" + body)

        threading.Thread(target=serve, daemon=True).start()
        client = Client(f"http://127.0.0.1:{listener.getsockname()[1]}", retry=FAST)
        self.addCleanup(client.close)
        for call in (lambda: client.create("t"), lambda: client.create_batch([NewJob("t", None)]),
                     lambda: client.operations.bulk("cancel", "t")):
            client.get("t", "a")  # the connection is now kept alive, and reused by the call
            with self.assertRaises(JobfoundryError):
                call()
        self.assertEqual(["POST"] * 3, posts, "each call reached the server once")
        client.get("t", "a")
        with self.assertRaises(JobfoundryError):
            client.cancel("t", "a")  # safe to repeat: sent again, and again read and dropped
        self.assertGreater(len(posts), 4)

    def test_a_lost_connection_is_retried(self):
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(5)
        connections = []

        def serve():
            body = ('{"type":"t","id":"a","state":"pending","result":null,"data":null,"group":"",'
                    '"priority":"low","scheduledAt":null,"createdAt":null,"updatedAt":null,"startedAt":null,'
                    '"finishedAt":null,"repeat":null,"attempt":0,"maxAttempts":25,"lastError":null,'
                    '"resubmit":false,"worker":null}').encode()
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:
                    return
                with conn:
                    data = b""
                    while b"\r\n\r\n" not in data:
                        chunk = conn.recv(4096)
                        if not chunk:
                            break
                        data += chunk
                    connections.append(data)
                    if len(connections) == 1:
                        continue  # closed without a word: a crashed proxy, a restarting service
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                                 + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)

        threading.Thread(target=serve, daemon=True).start()
        try:
            client = Client(f"http://127.0.0.1:{server.getsockname()[1]}", retry=FAST)
            self.addCleanup(client.close)
            self.assertEqual("a", client.get("t", "a").id)
            self.assertEqual(2, len(connections))
        finally:
            server.close()

    def test_a_call_on_a_connection_the_server_closed_while_idle_goes_again_on_a_fresh_one_even_a_create(self):
        with StubService(lambda r: (201, job("t", "a"), NO_HEADERS), idle_timeout=0.2) as stub:
            with Client(stub.url, retry=RetryPolicy(1)) as client:  # no retries: the fresh try is not one
                client.create("t")
                time.sleep(0.6)  # the server closes the kept-alive connection meanwhile
                client.create("t")
                client.put("t", "a")
            self.assertEqual(3, len(stub.requests), "each call reached the service once")

    def test_an_unreachable_service_is_a_jobfoundry_error_after_the_retries(self):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()  # nothing listens there now
        with self.assertRaises(JobfoundryError) as caught:
            Client(f"http://127.0.0.1:{port}", retry=FAST).get("t", "a")
        self.assertNotIsInstance(caught.exception, ProblemError)
        self.assertIsInstance(caught.exception.__cause__, ConnectionRefusedError)

    def test_the_token_is_sent_as_bearer(self):
        with StubService(lambda r: (200, job("t", "a"), NO_HEADERS)) as stub:
            with Client(stub.url, token="s3cret") as client:
                client.get("t", "a")
            with Client(stub.url) as client:
                client.get("t", "a")
            self.assertEqual("Bearer s3cret", stub.requests[0].headers.get("authorization"))
            self.assertNotIn("authorization", stub.requests[1].headers)

    def test_a_token_read_from_a_file_with_its_newline_works_and_a_bad_one_is_refused_without_quoting_it(self):
        with StubService(lambda r: (200, job("t", "a"), NO_HEADERS)) as stub:
            with Client(stub.url, token="  s3cret-from-file\n") as client:
                client.get("t", "a")
            self.assertEqual("Bearer s3cret-from-file", stub.requests[0].headers.get("authorization"))
            for bad in ("s3cret\nX-Injected: 1", "s3cr\u00e9t", "s3 cret", "\n"):
                with self.assertRaises(JobfoundryError) as caught:
                    Client(stub.url, token=bad)
                self.assertNotIn("s3cr", str(caught.exception), "the message never quotes the token")
            self.assertEqual(1, len(stub.requests), "a refused token is never sent")

    def test_problems_are_typed_and_halts_carry_their_reason(self):
        def answer(r):
            if r.path.endswith("/heartbeat"):
                return 409, halt_problem("cancelled"), NO_HEADERS
            return 400, {"type": "tag:jobfoundry.io,2026:problem/invalid-request", "title": "Invalid request",
                         "status": 400, "detail": "bad", "field": "priority"}, NO_HEADERS

        with StubService(answer) as stub:
            client = Client(stub.url)
            self.addCleanup(client.close)
            with self.assertRaises(HaltError) as halt:
                client.heartbeat(Heartbeat("t", "a", "L"))
            self.assertEqual("cancelled", halt.exception.reason)
            with self.assertRaises(ProblemError) as bad:
                client.create("t", priority="urgent")
            self.assertNotIsInstance(bad.exception, HaltError)
            self.assertEqual(400, bad.exception.status)
            self.assertEqual("priority", bad.exception.member("field"))

    def test_only_the_services_own_404_means_no_such_job(self):
        not_found = {"type": "tag:jobfoundry.io,2026:problem/job-not-found", "title": "No such job", "status": 404}
        no_path = {"type": "about:blank", "title": "Not Found", "status": 404}  # e.g. a base URL missing a prefix
        answers = iter([not_found, not_found, no_path, no_path, no_path])
        with StubService(lambda r: (404, next(answers), NO_HEADERS)) as stub, Client(stub.url) as client:
            self.assertIsNone(client.get("t", "a"))
            self.assertFalse(client.remove("t", "a"))
            for call in (lambda: client.get("t", "a"), lambda: client.remove("t", "a"), lambda: client.type("t")):
                with self.assertRaises(ProblemError) as caught:
                    call()
                self.assertEqual(404, caught.exception.status)

    def test_ids_are_percent_encoded_as_utf8(self):
        with StubService(lambda r: (200, job("t", "x"), NO_HEADERS)) as stub:
            with Client(stub.url) as client:
                client.get("t", "a b;c?é%")
            self.assertEqual("/v1/jobs/t/a%20b%3Bc%3F%C3%A9%25", stub.requests[0].path)


class RetryPolicyTest(unittest.TestCase):
    def test_delays_double_with_equal_jitter_and_stop_at_the_cap(self):
        policy = RetryPolicy(10, 0.1, 1.0)
        for attempt, full in enumerate([0.1, 0.2, 0.4, 0.8, 1.0, 1.0], start=1):
            seen = {policy.delay(attempt) for _ in range(200)}
            self.assertTrue(all(full / 2 <= d <= full for d in seen), (attempt, min(seen), max(seen)))
            self.assertGreater(len(seen), 10, "delays are jittered")

    def test_retry_after_raises_the_delay_up_to_the_cap(self):
        self.assertEqual(0.4, RetryPolicy(5, 0.01, 0.4).delay(1, 1.0))
        self.assertEqual(1.0, RetryPolicy(5, 0.01, 5.0).delay(1, 1.0))

    def test_nonsense_is_refused(self):
        with self.assertRaises(ValueError):
            RetryPolicy(0)
        with self.assertRaises(ValueError):
            RetryPolicy(3, 2.0, 1.0)


if __name__ == "__main__":
    unittest.main()
