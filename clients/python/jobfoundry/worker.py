"""A worker runtime: accept, run handlers on threads, heartbeat, finish, stop gracefully."""
from __future__ import annotations

import itertools
import logging
import os
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Sequence, Set, Union

from ._accepts import REFUSED_AGAIN, AcceptFailures
from ._context import JobContext, job_data
from ._loops import Counters, Finishes, Heartbeats, TypeTimeouts
from .client import MAX_SERVER_WAIT, Client
from .errors import JobInterrupted
from .models import Finish, LeasedJob

log = logging.getLogger("jobfoundry.worker")
MAX_ACCEPT = 100
ACCEPT_GRACE = 1.0  # seconds an accept on its way at shutdown may take to bring back what it took
_ids = itertools.count(1)

#: A handler: takes the job's context, returns the job's new data (None: unchanged), raises to fail the attempt.
Handler = Callable[[JobContext], Any]


@dataclass(frozen=True)
class WorkerStats:
    """What a worker has done so far.

    ``running``: jobs being handled or waiting for their finish; ``halted``: jobs the service halted (stopped, not
    finished); ``abandoned``: jobs still running when a shutdown's deadline passed (stopped, not finished, back
    after their activity timeout); ``lost_finishes``: finishes not delivered after their retries;
    ``largest_accept``/``largest_finish_batch``: most jobs one accept or batch finish carried;
    ``finish_batches``/``heartbeat_batches``: batch requests the service answered (a service that does not serve
    batch calls gets single ones instead)."""

    accepted: int
    running: int
    succeeded: int
    failed: int
    halted: int
    abandoned: int
    lost_finishes: int
    accept_calls: int
    largest_accept: int
    finish_calls: int
    finish_batches: int
    largest_finish_batch: int
    heartbeat_calls: int
    heartbeat_batches: int


class Worker:
    """Accepts jobs of some types (names or globs: a list, or one name as a string) and runs ``handler`` for each
    on at most ``concurrency`` threads.

    - Each accept asks for as many jobs as there are free threads (up to 100), waiting on the service when none
      is due.
    - Heartbeats go out every ``heartbeat_fraction`` (default 1/3) of the type's activity timeout, read from the
      service, carrying the handler's :meth:`JobContext.progress`.
    - A halt (the job was cancelled, removed, or its lease lost) raises :class:`JobInterrupted` in the handler's
      thread, and the job is never finished by this worker.
    - A handler's return value is the job's new data; an exception finishes it ``failed`` with its message (the
      traceback goes to the ``jobfoundry.worker`` log at WARNING).
    - Finishes ready at the same moment go in one batch request. A finish the service cannot be reached for,
      after the client's retries (a restart, a deploy), is kept and sent again every few seconds for up to ten
      minutes while its job's heartbeats go on, or until :meth:`shutdown`'s deadline.
    - :meth:`shutdown` stops accepting, lets running handlers finish within a deadline, sends their finishes and
      stops; handlers still running then are interrupted and their jobs come back after their activity timeout.
    """

    def __init__(self, client: Client, handler: Handler, types: Union[str, Sequence[str]], concurrency: int = 4,
                 heartbeat_fraction: float = 1 / 3, accept_wait: float = 30.0, name: Optional[str] = None) -> None:
        if isinstance(types, str):
            # One name: a string is a sequence too, and would be taken for one type per character.
            types = [types]
        if not types:
            raise ValueError("name at least one type or glob")
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if not 0 < heartbeat_fraction < 1:
            raise ValueError("heartbeat_fraction must be between 0 and 1")
        # The service refuses 1 to 99 ms as a unit mistaken (seconds meant as milliseconds).
        if not (accept_wait == 0 or 0.1 <= accept_wait <= MAX_SERVER_WAIT):
            raise ValueError("accept_wait must be 0, or between 0.1 and 300 seconds")
        self._client = client
        self._handler = handler
        self._types = list(types)
        self._concurrency = concurrency
        self._accept_wait = accept_wait
        self.name = name or f"{socket.gethostname()}/{os.getpid()}"
        self._counters = Counters()
        self._slots = threading.Semaphore(concurrency)
        self._free_lock = threading.Lock()
        self._free = concurrency
        self._running: Set[JobContext] = set()
        self._threads: Set[threading.Thread] = set()
        self._lock = threading.Lock()
        self._heartbeats = Heartbeats(client, TypeTimeouts(client), heartbeat_fraction, self._counters)
        self._finishes = Finishes(client, self._heartbeats, self._counters)
        n = next(_ids)
        self._prefix = f"jobfoundry-{n}"
        self._acceptor = threading.Thread(target=self._accept_loop, name=f"{self._prefix}-accept", daemon=True)
        self._beater = threading.Thread(target=self._heartbeats.run, name=f"{self._prefix}-heartbeat", daemon=True)
        self._finisher = threading.Thread(target=self._finishes.run, name=f"{self._prefix}-finish", daemon=True)
        self._accepting = False
        self._stopped = False
        self._in_accept = False
        self._stopping = threading.Event()
        self._refused_again = REFUSED_AGAIN  # the tests shorten it

    def start(self) -> "Worker":
        """Starts accepting jobs."""
        with self._lock:
            if self._accepting or self._stopped:
                raise RuntimeError("a worker starts once")
            self._accepting = True
        self._beater.start()
        self._finisher.start()
        self._acceptor.start()
        return self

    def stats(self) -> WorkerStats:
        """What the worker has done so far."""
        c = self._counters
        with c.lock:
            return WorkerStats(c.accepted, c.running, c.succeeded, c.failed, c.halted, c.abandoned, c.lost_finishes,
                               c.accept_calls, c.largest_accept, c.finish_calls, c.finish_batches,
                               c.largest_finish_batch, c.heartbeat_calls, c.heartbeat_batches)

    def shutdown(self, deadline: float = 30.0) -> bool:
        """Stops gracefully: no more accepts (an accept on its way gets a second to bring what it took; one still
        waiting then is cut, and the service keeps its jobs), running handlers get ``deadline`` seconds to return
        and their finishes are sent; handlers still running then are interrupted and their jobs left to come
        back. True if none had to be abandoned."""
        with self._lock:
            if self._stopped:
                return self._counters.abandoned == 0
            self._stopped = True
            self._accepting = False
        self._stopping.set()
        end = time.monotonic() + deadline
        self._stop_accepting(min(ACCEPT_GRACE, deadline))
        clean = self._join_handlers(end)
        if not clean:
            with self._lock:
                left = list(self._running)
            for job in left:
                self._heartbeats.remove(job)
                job.abandon()
            self._join_handlers(time.monotonic() + 5.0)
        self._finishes.drain_and_stop(end)
        if self._finisher.is_alive():
            self._finisher.join()
        self._heartbeats.stop()
        if self._beater.is_alive():
            self._beater.join()
        return clean

    def __enter__(self) -> "Worker":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.shutdown()

    # ---- accepting

    def _stop_accepting(self, grace: float) -> None:
        """Ends the accept loop. An accept on its way is given a moment to come back with what it took: cutting
        it while the service is answering would strand the jobs in that answer until their activity timeout.
        One still out after the grace is waiting with nothing due, and is cut: the service hands no job to a
        client that hung up."""
        if self._in_accept and self._acceptor.is_alive():
            self._acceptor.join(grace)
        self._client.transport.abort(self._acceptor.ident)
        self._release(0)  # wakes an acceptor waiting for a free slot
        if self._acceptor.is_alive():
            self._acceptor.join()
        self._client.transport.forget(self._acceptor.ident)

    def _accept_loop(self) -> None:
        failures = AcceptFailures(self._refused_again)
        while self._accepting:
            free = self._take_free_slots()
            if free == 0:
                continue
            self._in_accept = True
            if not self._accepting:  # a shutdown that saw _in_accept false cuts at once; one that saw it true waits
                self._in_accept = False
                self._release(free)
                return
            try:
                jobs = self._client.accept(self._types, free, self._accept_wait, self.name)
                failures.answered()
            except Exception as e:  # noqa: B902 - whatever went wrong, a dead acceptor would stop the worker silently
                self._in_accept = False
                self._release(free)
                if not self._accepting:
                    return
                self._stopping.wait(failures.failed(e))  # a shutdown cuts the pause short
                continue
            self._in_accept = False
            if len(jobs) < free:  # an accept that came back full frees nothing: _release(0) would add a slot
                self._release(free - len(jobs))
            if jobs:
                self._counters.add(accept_calls=1)
                self._counters.most("largest_accept", len(jobs))
            for leased in jobs:  # jobs an accept brought are run even if a shutdown began: they are ours now
                self._run(leased)

    def _take_free_slots(self) -> int:
        """Waits for at least one free slot, then takes all that are free (at most 100)."""
        self._slots.acquire()
        with self._free_lock:
            if not self._accepting:
                self._slots.release()
                return 0
            free = 1
            while free < MAX_ACCEPT and self._slots.acquire(blocking=False):
                free += 1
            return free

    def _release(self, n: int) -> None:
        if n == 0:
            self._slots.release()  # a wake-up only: taken back by _take_free_slots when it sees the stop
            return
        for _ in range(n):
            self._slots.release()

    # ---- handling

    def _run(self, leased: LeasedJob) -> None:
        job = JobContext(leased)
        self._counters.add(accepted=1, running=1)
        thread = threading.Thread(target=self._handle, args=(job,), name=f"{self._prefix}-handler-{leased.id}",
                                  daemon=True)
        with self._lock:
            self._running.add(job)
            self._threads.add(thread)
        self._heartbeats.add(job)
        thread.start()

    def _handle(self, job: JobContext) -> None:
        finish: Optional[Finish] = None
        try:
            try:
                job.enter()
                try:
                    if not job.stopping:
                        finish = _outcome(job.leased, self._handler(job))
                finally:
                    job.leave()
            except JobInterrupted:
                pass
            except BaseException as e:  # noqa: B902 - any failure of the handler is the job's failure
                finish = Finish.failed(job.leased, _message(e))
                if not job.halted and not job.abandoned:
                    # The job's lastError keeps the message only: where it came from is here.
                    log.warning("job %s/%s failed: %s", job.job.type, job.job.id, finish.error, exc_info=True)
        finally:
            self._completed(job, finish)

    def _completed(self, job: JobContext, finish: Optional[Finish]) -> None:
        with self._lock:
            self._running.discard(job)
            self._threads.discard(threading.current_thread())
        if job.halted or job.abandoned or finish is None:
            # Halted: the service said stop, so no outcome of ours counts. Abandoned: the job comes back.
            self._heartbeats.remove(job)
            self._counters.add(running=-1)
            if job.abandoned and not job.halted:
                self._counters.add(abandoned=1)
        else:
            job.finishing = True
            self._finishes.submit(job, finish)
        self._slots.release()

    def _join_handlers(self, until: float) -> bool:
        while True:
            with self._lock:
                threads: List[threading.Thread] = list(self._threads)
            if not threads:
                return True
            left = until - time.monotonic()
            if left <= 0:
                return False
            threads[0].join(min(left, 0.05))


def _outcome(leased: LeasedJob, result: Any) -> Finish:
    """The finish a handler's return value makes. A result that cannot be sent fails the attempt here, with the
    reason: sent as it is, it would fail the finish of every job in its batch."""
    if result is None:
        return Finish.succeeded(leased)
    try:
        return Finish.succeeded(leased, job_data(result, "the handler's result"))
    except TypeError as e:
        return Finish.failed(leased, str(e))


def _message(e: BaseException) -> str:
    """The failure's text for ``lastError``. An exception's ``__str__`` is the handler's code and may itself fail:
    that must not cost the job its finish."""
    try:
        text = str(e)
    except Exception:  # noqa: B902
        text = ""
    return text or type(e).__name__
