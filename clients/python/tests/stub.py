"""A tiny HTTP server standing in for the service, for behaviour the real one cannot be made to show on demand
(a 503, an answer at a chosen moment). Every request is recorded; a handler function decides the answer."""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple

Reply = Tuple[int, Any, Dict[str, str]]


@dataclass
class Request:
    method: str
    path: str
    headers: Dict[str, str]
    body: str

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class StubService:
    def __init__(self, answer: Callable[[Request], Reply], idle_timeout: Optional[float] = None) -> None:
        """``idle_timeout``: seconds after which a kept-alive connection with no request is closed, as servers do."""
        self.requests: List[Request] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            timeout = idle_timeout

            def log_message(self, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8") if length else ""
                request = Request(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                stub.requests.append(request)
                try:
                    status, payload, headers = answer(request)
                except Exception as e:  # a bug in the test's handler shows as a 500 with its text
                    status, payload, headers = 500, {"detail": f"stub: {e!r}"}, {}
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                if payload is None:
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                raw = (payload if isinstance(payload, str) else json.dumps(payload)).encode("utf-8")
                ctype = "application/problem+json" if status >= 400 else "application/json"
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _serve

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def paths(self, prefix: str) -> List[Request]:
        return [r for r in self.requests if r.path.startswith(prefix)]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "StubService":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def job(type_: str, id_: str, state: str = "pending") -> Dict[str, Any]:
    """A job object as the service writes it."""
    return {"type": type_, "id": id_, "state": state, "result": None, "data": None, "group": "", "priority": "low",
            "scheduledAt": "2026-11-21T10:00:00Z", "createdAt": "2026-11-21T10:00:00.123456Z",
            "updatedAt": "2026-11-21T10:00:00Z", "startedAt": None, "finishedAt": None, "repeat": None,
            "attempt": 0, "maxAttempts": 25, "lastError": None, "resubmit": False, "worker": None}


def leased(type_: str, *ids: str) -> List[Dict[str, Any]]:
    return [dict(job(type_, i, "running"), lease=f"L-{i}") for i in ids]


def results(body: Dict[str, Any], halted: Tuple[str, ...] = ()) -> Dict[str, Any]:
    """A batch answer: 200 for each item, 409 cancelled for those named."""
    out = []
    for item in body["jobs"]:
        if item["id"] in halted:
            out.append({"status": 409, "reason": "cancelled"})
        else:
            out.append({"status": 200, "job": job(item.get("type", "t"), item["id"], "running")})
    return {"results": out}


def await_true(condition: Callable[[], bool], timeout: float, what: str = "condition") -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"{what}: not within {timeout}s")
        time.sleep(0.02)


def halt_problem(reason: str = "cancelled") -> Dict[str, Any]:
    return {"type": "tag:jobfoundry.io,2026:problem/halt", "title": "Halt", "status": 409,
            "detail": f"halt: {reason}", "reason": reason}


NO_HEADERS: Dict[str, str] = {}
