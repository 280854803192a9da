"""The event stream's connection, against a socket server that answers as scripted: opening retried after a 503,
a silent connection taken for dead, a close from another thread that ends a waiting reader quietly."""
import json
import socket
import threading
import time
import unittest

from jobfoundry import Client, JobfoundryError, RetryPolicy

FAST = RetryPolicy(5, 0.01, 0.05)
STATE = "event: state\ndata: " + json.dumps({"type": "t", "id": "a", "state": "pending", "attempt": 0}) + "\n\n"
REMOVED = 'event: removed\ndata: {"type":"t","id":"a"}\n\n'
STREAM_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"


class ScriptedServer:
    """Answers the n-th connection with ``script[n](conn)``, then waits until the client hangs up."""

    def __init__(self, *script):
        self.script = list(script)
        self.hung_up = threading.Event()
        self._sock = socket.create_server(("127.0.0.1", 0))
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self._sock.getsockname()[1]}"

    def _serve(self):
        for step in self.script:
            conn, _ = self._sock.accept()
            with conn:
                request = b""
                while b"\r\n\r\n" not in request:
                    request += conn.recv(4096)
                step(conn)
                conn.settimeout(10)
                try:
                    while conn.recv(4096):
                        pass
                    self.hung_up.set()  # the client closed its end (not this server's timeout)
                except OSError:
                    pass

    def close(self):
        self._sock.close()


def unavailable(conn):
    body = json.dumps({"type": "tag:jobfoundry.io,2026:problem/store-unavailable", "status": 503}).encode()
    conn.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\nContent-Length: "
                 + str(len(body)).encode() + b"\r\n\r\n" + body)


def stream(*events):
    def send(conn):
        conn.sendall((STREAM_HEAD + ":keep-alive\n\n" + "".join(events)).encode())
    return send


class EventStreamTest(unittest.TestCase):
    def serve(self, *script):
        server = ScriptedServer(*script)
        self.addCleanup(server.close)
        client = Client(server.url, retry=FAST)
        self.addCleanup(client.close)
        return server, client

    def test_opening_is_retried_after_a_503(self):
        _, client = self.serve(unavailable, stream(STATE, REMOVED))
        with client.events("t", "a") as events:
            self.assertEqual([False, True], [e.removed for e in events])

    def test_a_silent_connection_is_taken_for_dead(self):
        _, client = self.serve(stream(STATE))
        events = client.events("t", "a", idle_timeout=0.3)
        self.assertEqual("pending", next(events).job.state)
        started = time.monotonic()
        with self.assertRaises(JobfoundryError) as dead:
            next(events)
        self.assertIn("taken for dead", str(dead.exception))
        self.assertLess(time.monotonic() - started, 5)

    def test_a_close_from_another_thread_ends_a_waiting_reader_quietly_and_hangs_up(self):
        server, client = self.serve(stream(STATE))
        events = client.events("t", "a")
        self.assertEqual("pending", next(events).job.state)
        threading.Timer(0.2, events.close).start()
        started = time.monotonic()
        self.assertEqual([], list(events), "no more events, and no failure")
        self.assertLess(time.monotonic() - started, 3, "the close woke the waiting reader")
        self.assertTrue(server.hung_up.wait(3), "the connection was closed")

    def test_an_idle_timeout_must_be_a_positive_number(self):
        _, client = self.serve()
        for bad in (0, -1, None):
            with self.assertRaises(ValueError):
                client.events("t", "a", idle_timeout=bad)

    def test_an_answer_that_is_not_an_event_stream_is_refused(self):
        def page(conn):
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 6\r\n\r\n<html>")
        _, client = self.serve(page)
        with self.assertRaises(JobfoundryError) as refused:
            client.events("t", "a")
        self.assertIn("without an event stream", str(refused.exception))


if __name__ == "__main__":
    unittest.main()
