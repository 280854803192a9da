"""One HTTP exchange with the service over a kept-alive connection per thread, repeated by the retry policy
after a 503 or a lost connection."""
from __future__ import annotations

import http.client
import json
import select
import socket
import threading
import time
import uuid
from typing import Any, Callable, Dict, Optional, Set, Tuple
from urllib.parse import urlsplit

from .errors import HALT_TYPE, HaltError, JobfoundryError, ProblemError
from .models import RetryPolicy

USER_AGENT = "jobfoundry-client-python/0.1"
# How a kept-alive connection the server closed shows when it is next written to or read from: the write is refused
# (EPIPE, ECONNRESET), or the read finds the connection closed before a status line (RemoteDisconnected).
_CLOSED_WHILE_IDLE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, http.client.RemoteDisconnected)


class Answer:
    """A status and the JSON body (None when empty or not JSON)."""

    __slots__ = ("status", "body")

    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.body = body

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def problem(self) -> ProblemError:
        body = self.body if isinstance(self.body, dict) else None
        if self.status == 409 and body is not None and body.get("type") == HALT_TYPE:
            return HaltError(body)
        return ProblemError(self.status, body)

    def or_raise(self) -> "Answer":
        if not self.ok:
            raise self.problem()
        return self


class Transport:
    def __init__(self, base_url: str, token: Optional[str], retry: RetryPolicy, timeout: float) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {base_url!r}")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port or (443 if self._https else 80)
        self._prefix = parts.path.rstrip("/")
        self._headers = {"User-Agent": USER_AGENT}
        self._token = _checked_token(token)
        if self._token:
            self._headers["Authorization"] = f"Bearer {self._token}"
        self._retry = retry
        self._timeout = timeout
        self._lock = threading.Lock()
        self._connections: Dict[int, http.client.HTTPConnection] = {}
        self._aborted: Set[int] = set()

    def abort(self, thread_ident: Optional[int]) -> None:
        """Cuts the connection a thread is using, so that its call (a long poll) ends at once: the service sees
        the client leave and hands it nothing. The thread's calls from now on fail at once, without retries: the
        thread is on its way out (a worker's acceptor at shutdown)."""
        if thread_ident is None:
            return
        with self._lock:
            self._aborted.add(thread_ident)
            conn = self._connections.pop(thread_ident, None)
        if conn is not None:
            if conn.sock is not None:
                try:
                    conn.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            conn.close()

    def forget(self, thread_ident: Optional[int]) -> None:
        """Ends an abort once its thread has ended: thread idents are reused by new threads."""
        with self._lock:
            self._aborted.discard(thread_ident)  # type: ignore[arg-type]

    def close(self) -> None:
        with self._lock:
            conns, self._connections = list(self._connections.values()), {}
        for conn in conns:
            conn.close()

    def send(self, method: str, path: str, body: Any = None, idempotent: bool = True,
             long_poll: float = 0.0, keyed: bool = False,
             poll: Optional[Callable[[], Tuple[str, float]]] = None) -> Answer:
        """Sends one call. A call that is not idempotent (a create without an id) is repeated only when the
        connection could not be made, since otherwise it may have taken effect. A ``keyed`` call (a PUT, a
        resubmit, a batch of named jobs) carries an ``Idempotency-Key`` drawn for it, the same in each repeat, by
        which the service recognizes a repeat of a call that took effect. ``poll``, for a long poll with a
        deadline, gives each attempt its path and wait afresh: a repeat after a lost connection asks for what is
        left of the wait, not for the whole of it again."""
        try:
            # NaN and Infinity are no JSON: the service would refuse the body, naming its reader rather than the value.
            payload = None if body is None else json.dumps(body, separators=(",", ":"), allow_nan=False).encode("utf-8")
        except (TypeError, ValueError) as e:
            raise JobfoundryError(f"the request body cannot be sent as JSON: {e}") from e
        headers = dict(self._headers)
        if payload is not None:
            headers["Content-Type"] = "application/json"
        if keyed:
            headers["Idempotency-Key"] = str(uuid.uuid4())

        def once() -> Tuple[Answer, Optional[http.client.HTTPMessage]]:
            sent, wait = poll() if poll is not None else (path, long_poll)
            status, answer_headers, raw = self._exchange(method, sent, payload, headers, wait, idempotent)
            return Answer(status, _json(raw)), answer_headers

        return self._retried(method, path, idempotent, once)

    def lines(self, path: str, idle_timeout: float) -> "LineStream":
        """The lines of a streamed answer (``text/event-stream``), on a connection of its own. Opening it is retried
        like any GET (after a 503 or a lost connection); a refusal raises its problem, a 200 that is not an event
        stream (a proxy's page) JobfoundryError. ``idle_timeout``: seconds without a byte after which the
        connection is taken for dead."""
        if idle_timeout is None or not idle_timeout > 0:
            raise ValueError(f"idle_timeout is a number of seconds above 0, not {idle_timeout!r}")
        headers = dict(self._headers, Accept="text/event-stream")

        def once() -> Tuple[Any, Optional[http.client.HTTPMessage]]:
            cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            conn = cls(self._host, self._port, timeout=self._timeout)
            try:
                conn.request("GET", self._prefix + path, headers=headers)
                # Kept here: an answer that will close hands the socket over to the response, and the connection
                # forgets it; the response goes on reading it, and the idle timeout and a close must reach it.
                sock = conn.sock
                response = conn.getresponse()
                if response.status == 200 and response.getheader("Content-Type", "").startswith("text/event-stream"):
                    sock.settimeout(idle_timeout)
                    return LineStream(conn, sock, response, lambda e: self._failure("GET", path, e), self._leaks,
                                      idle_timeout), None
                answer = Answer(response.status, _json(response.read()))
            except BaseException:
                conn.close()
                raise
            conn.close()
            return answer, response.headers

        opened = self._retried("GET", path, True, once)
        if isinstance(opened, Answer):
            raise opened.problem() if not opened.ok else JobfoundryError(
                f"GET {path} answered {opened.status} without an event stream")
        return opened

    def _retried(self, method: str, path: str, idempotent: bool,
                 once: Callable[[], Tuple[Any, Optional[http.client.HTTPMessage]]]) -> Any:
        """What ``once`` answers, asked again after a 503 (an Answer with its headers) or a lost connection when the
        call is ``idempotent``, and after a connection that could not be made in any case, up to the policy's
        attempts. A call that is not idempotent (a create without an id) is repeated only when the connection
        could not be made, since otherwise it may have taken effect."""
        attempt = 0
        while True:
            attempt += 1
            retry_after: Optional[float] = None
            self._check_aborted(method, path)
            try:
                result, answer_headers = once()
                unavailable = isinstance(result, Answer) and result.status == 503
                if not unavailable or not idempotent or attempt >= self._retry.max_attempts:
                    return result
                retry_after = _retry_after(answer_headers)
            except ConnectionRefusedError as e:
                if attempt >= self._retry.max_attempts:
                    raise JobfoundryError(f"{method} {path}: cannot connect to {self._host}:{self._port}") from e
            except (OSError, http.client.HTTPException) as e:
                if not idempotent or attempt >= self._retry.max_attempts:
                    raise self._failure(method, path, e) from (None if self._leaks(e) else e)
            except Exception as e:
                # abort() closed the connection under this thread mid-call: whatever that broke, it was asked for
                self._check_aborted(method, path)
                # Anything else http.client raised (a ValueError about a header, say) may quote the request's
                # headers, the token among them: it leaves as a JobfoundryError that does not.
                raise self._failure(method, path, e) from (None if self._leaks(e) else e)
            self._check_aborted(method, path)
            time.sleep(self._retry.delay(attempt, retry_after))

    def _leaks(self, e: BaseException) -> bool:
        return bool(self._token) and self._token in f"{e!s}{e!r}"

    def _failure(self, method: str, path: str, e: BaseException) -> JobfoundryError:
        text = repr(e)
        if self._token:
            text = text.replace(self._token, "<token>")
        return JobfoundryError(f"{method} {path}: {text}")

    def _check_aborted(self, method: str, path: str) -> None:
        if threading.get_ident() in self._aborted:
            raise JobfoundryError(f"{method} {path}: aborted")

    def _exchange(self, method: str, path: str, payload: Optional[bytes], headers: Dict[str, str],
                  long_poll: float, idempotent: bool) -> Tuple[int, http.client.HTTPMessage, bytes]:
        for fresh in (False, True):
            conn, reused = self._connection()
            if reused and not idempotent and _closed_by_peer(conn):
                # A call that must not go twice is not sent on a connection the server may have closed, which
                # would leave it unknown whether the server read it: a fresh one instead.
                self._drop(conn)
                conn, reused = self._connection()
            answered = False
            try:
                conn.timeout = self._timeout + long_poll
                if conn.sock is not None:
                    conn.sock.settimeout(conn.timeout)
                conn.request(method, self._prefix + path, body=payload, headers=headers)
                response = conn.getresponse()
                answered = True
                raw = response.read()
                if response.will_close:
                    self._drop(conn)
                return response.status, response.headers, raw
            except _CLOSED_WHILE_IDLE:
                self._drop(conn)
                # A server closes a kept-alive connection once it has been idle for a while (Quarkus after 30 min by
                # default, less where configured), and we learn it only by writing to it, or by an answer that never
                # comes: then the request goes again, once, on a fresh connection. Only a call that may go twice:
                # a server that read the request and then closed (a crash, a restart) is told apart from an idle
                # close by nothing, so a create, a resubmit or a bulk action fails instead, and was checked for a
                # closed connection before it was sent.
                if reused and not answered and not fresh and idempotent:
                    continue
                raise
            except BaseException:
                self._drop(conn)  # a connection in an unknown state is never reused
                raise
        raise AssertionError("unreachable: the fresh try returns or raises")

    def _connection(self) -> Tuple[http.client.HTTPConnection, bool]:
        """This thread's connection, and whether it has carried a call before (the server may have closed it)."""
        ident = threading.get_ident()
        with self._lock:
            if ident in self._aborted:
                raise http.client.NotConnected("aborted")
            conn = self._connections.get(ident)
            if conn is None:
                # Threads that ended leave their connection behind: close those before adding one.
                alive = {t.ident for t in threading.enumerate()}
                for gone in [i for i in self._connections if i not in alive]:
                    self._connections.pop(gone).close()
                cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
                conn = cls(self._host, self._port, timeout=self._timeout)
                # http.client would silently reconnect a connection abort() closed, and the long poll it was
                # meant to end would start again: connections are opened here, and only here.
                conn.auto_open = 0
                self._connections[ident] = conn
        if conn.sock is not None:
            return conn, True
        conn.connect()
        if ident in self._aborted:  # abort() came while connecting, and found nothing to cut
            conn.close()
            raise http.client.NotConnected("aborted")
        return conn, False

    def _drop(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            for ident, known in list(self._connections.items()):
                if known is conn:
                    del self._connections[ident]
        conn.close()


class LineStream:
    """The lines of one streamed answer, read as they arrive. :meth:`close` may come from any thread: it shuts the
    socket down, which wakes a reader waiting on it, and that reader then sees the end, not a failure, and closes
    the connection itself (closing it under a reader would break the reader's file mid-read)."""

    def __init__(self, conn: http.client.HTTPConnection, sock: socket.socket, response: http.client.HTTPResponse,
                 failure: Callable[[BaseException], JobfoundryError], leaks: Callable[[BaseException], bool],
                 idle_timeout: float) -> None:
        self._conn = conn
        self._sock = sock
        self._response = response
        self._failure = failure
        self._leaks = leaks
        self._idle_timeout = idle_timeout
        self._lock = threading.Lock()
        self._closed = False
        self._reading = False

    def readline(self) -> Optional[str]:
        """The next line without its end, or None at the end of the stream (or once it is closed)."""
        with self._lock:
            if self._closed:
                return None
            self._reading = True
        failure: Optional[JobfoundryError] = None
        cause: Optional[BaseException] = None
        raw = b""
        try:
            raw = self._response.readline()
        except socket.timeout as e:
            failure, cause = JobfoundryError(f"no event and no keep-alive for {self._idle_timeout:g} s: the "
                                             f"connection is taken for dead; open the stream again"), e
        except (OSError, http.client.HTTPException, ValueError) as e:
            failure, cause = self._failure(e), (None if self._leaks(e) else e)
        except BaseException:
            self.close()  # an interrupt: the connection goes with it
            raise
        with self._lock:
            self._reading = False
            closed = self._closed
        if closed or failure is not None or not raw:
            self._close_connection()
            if failure is not None and not closed:
                raise failure from cause
            return None
        return raw.decode("utf-8", "replace").rstrip("\r\n")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            reading = self._reading
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        if not reading:
            self._close_connection()

    def _close_connection(self) -> None:
        with self._lock:
            self._closed = True
        self._response.close()
        self._conn.close()
        self._sock.close()


def _closed_by_peer(conn: http.client.HTTPConnection) -> bool:
    """Whether an idle kept-alive connection has been closed by the server (or holds bytes nobody asked for): it is
    readable, which an idle connection still open never is."""
    sock = conn.sock
    if sock is None:
        return True
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


def _checked_token(token: Optional[str]) -> Optional[str]:
    """The token as it goes in the header. Surrounding whitespace goes: a token read from a secrets file usually
    ends with a newline, and http.client would refuse it on every call with an error quoting the header. Anything
    else a header cannot carry is refused here, in words that never quote the token."""
    if token is None or token == "":
        return None
    stripped = token.strip()
    if not stripped:
        raise JobfoundryError("the token is blank")
    if any(not "\x21" <= ch <= "\x7e" for ch in stripped):
        raise JobfoundryError("the token holds a character an Authorization header cannot carry (a space, a control "
                              "character or non-ASCII); a bearer token is visible ASCII only")
    return stripped


def _json(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        # A proxy's HTML error page: keep its start so that the problem says what came back.
        return {"detail": raw[:200].decode("utf-8", "replace")}


def _retry_after(headers: http.client.HTTPMessage) -> Optional[float]:
    value = headers.get("Retry-After")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None  # an HTTP date: the policy's own delay will do
