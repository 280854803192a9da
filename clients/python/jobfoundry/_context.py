"""One running job as its handler sees it, and the means to stop the handler's thread."""
from __future__ import annotations

import ctypes
import itertools
import json
import threading
import time
from typing import Any, List, Optional, Tuple

from .errors import JobInterrupted
from .models import UNSET, Job, LeasedJob


_accepted = itertools.count()


def job_data(value: Any, what: str) -> Any:
    """``value`` as the service will store it: a JSON object or None, copied, so that the handler may go on changing
    its own. Done on the handler's thread, so that a value that cannot be sent is the handler's error and never the
    failure of the heartbeat or finish thread that would otherwise meet it. Raises TypeError naming the offending
    value's type (not its repr, which may be large)."""
    if value is not None and not isinstance(value, dict):
        raise TypeError(f"{what} must be a dict (a JSON object) or None, not {type(value).__name__}")
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        text.encode("utf-8")  # a lone surrogate passes json.dumps, but the service refuses it
    except UnicodeEncodeError:
        raise TypeError(f"{what} cannot be sent as JSON: a string holds a lone surrogate (not valid Unicode)") from None
    except (TypeError, ValueError, RecursionError) as e:
        raise TypeError(f"{what} cannot be sent as JSON: {e}") from None
    return json.loads(text)


def _raise_in(thread_ident: int) -> None:
    # CPython delivers the exception the next time the thread runs Python code: a handler blocked in C (a long
    # time.sleep, a socket read) sees it when that call returns. JobContext.sleep wakes at once instead.
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_ident), ctypes.py_object(JobInterrupted))


def _clear_in(thread_ident: int) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_ident), None)


class JobContext:
    """The job a handler works on: its data, a way to report progress, and whether it was halted."""

    def __init__(self, leased: LeasedJob) -> None:
        self._leased = leased
        self._progress: Any = UNSET
        self._progress_lock = threading.Lock()
        self._stop = threading.Event()
        self._halt_reason: Optional[str] = None
        self._abandoned = False
        # Taken only by the worker's own threads, never by the handler's: an exception raised into the handler's
        # thread could otherwise fire while it holds the lock and leave it held for good.
        self._halt_lock = threading.Lock()
        # One token, present while the handler runs. Whoever pops it (list.pop is atomic under the GIL) decides:
        # the interrupter, to raise into the handler; the handler's thread on its way out, so that none comes.
        self._token: List[int] = []
        self._thread: Optional[int] = None
        self._raised = False
        # Order of acceptance: of two leases this worker holds for one job, the later one is the job's lease.
        self.seq = next(_accepted)
        self.next_beat = 0.0  # owned by the heartbeat thread
        # Set once the handler returned and its finish is queued: the finish's own answer settles the job then.
        self.finishing = False
        self.released = False  # owned by the finish thread: the finish's answer was taken into account

    @property
    def key(self) -> Tuple[str, str]:
        return self._leased.job.type, self._leased.job.id

    @property
    def job(self) -> Job:
        """The job as accepted."""
        return self._leased.job

    @property
    def leased(self) -> LeasedJob:
        """The job with its lease."""
        return self._leased

    @property
    def data(self) -> Any:
        """The job's data as accepted (None when it has none)."""
        return self._leased.job.data

    def progress(self, data: Any) -> None:
        """Replaces the job's data with the next heartbeat, where GET and event streams show it. Only the latest
        value set before a heartbeat is sent. ``data`` is a dict (or None, which removes the data) that can be sent as
        JSON; anything else raises TypeError here, and the heartbeats go on without it."""
        data = job_data(data, "progress data")
        with self._progress_lock:
            self._progress = data

    @property
    def halted(self) -> bool:
        """Whether the service halted the job; the handler should stop, and its outcome will not be reported."""
        return self._halt_reason is not None

    @property
    def halt_reason(self) -> Optional[str]:
        """``lease-lost``, ``removed`` or ``cancelled`` once halted; else None."""
        return self._halt_reason

    @property
    def stopping(self) -> bool:
        """Whether the handler should stop: the job was halted or the worker's shutdown deadline passed."""
        return self._stop.is_set()

    def sleep(self, seconds: float) -> None:
        """Sleeps, but raises JobInterrupted at once if the worker stops the handler meanwhile. Use it instead of
        ``time.sleep`` in handlers that wait."""
        if self._stop.wait(seconds):
            raise JobInterrupted(self._halt_reason or "shutdown")

    # ---- for the worker

    def take_progress(self) -> Any:
        with self._progress_lock:
            data, self._progress = self._progress, UNSET
            return data

    def restore_progress(self, data: Any) -> None:
        with self._progress_lock:
            if self._progress is UNSET:
                self._progress = data

    def enter(self) -> None:
        """On the handler's thread, before the handler; then check :attr:`stopping`, set by a halt that came
        before the token."""
        self._thread = threading.get_ident()
        self._token.append(1)

    def leave(self) -> None:
        """On the handler's thread, after the handler: makes sure no interruption meant for the handler fires
        later in the worker's own code."""
        try:
            try:
                self._token.pop()
                return  # ours: nobody will raise into this thread now
            except IndexError:
                pass
            # The interrupter took the token: its exception is on the way. Wait until it is sent, then withdraw
            # it if it has not fired yet; if it fires meanwhile, it is caught below.
            while not self._raised:
                time.sleep(0.001)
            _clear_in(threading.get_ident())
        except JobInterrupted:
            pass

    def halt(self, reason: Optional[str]) -> bool:
        """Returns whether this was the job's first halt, so that it is counted once."""
        with self._halt_lock:
            if self._halt_reason is not None:
                return False
            self._halt_reason = reason or "halted"
        self._interrupt()
        return True

    def abandon(self) -> None:
        self._abandoned = True
        self._interrupt()

    @property
    def abandoned(self) -> bool:
        return self._abandoned

    def _interrupt(self) -> None:
        self._stop.set()
        try:
            self._token.pop()
        except IndexError:
            return  # the handler has not started (it will see stopping) or is done
        assert self._thread is not None
        _raise_in(self._thread)
        self._raised = True
