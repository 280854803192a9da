"""The worker's heartbeat and finish threads, and the activity timeouts they pace heartbeats by."""
from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

from ._context import JobContext
from .client import Client
from .errors import HaltError, JobfoundryError, ProblemError
from .models import Finish, Heartbeat, ItemResult

log = logging.getLogger("jobfoundry.worker")
MAX_BATCH = 1000


@dataclass
class Counters:
    """A worker's counters; see :class:`jobfoundry.WorkerStats` for their meaning."""

    accepted: int = 0
    running: int = 0
    succeeded: int = 0
    failed: int = 0
    halted: int = 0
    abandoned: int = 0
    lost_finishes: int = 0
    accept_calls: int = 0
    largest_accept: int = 0
    finish_calls: int = 0
    finish_batches: int = 0
    largest_finish_batch: int = 0
    heartbeat_calls: int = 0
    heartbeat_batches: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, **deltas: int) -> None:
        with self.lock:
            for name, delta in deltas.items():
                setattr(self, name, getattr(self, name) + delta)

    def most(self, name: str, value: int) -> None:
        with self.lock:
            setattr(self, name, max(getattr(self, name), value))


REFRESH = 60.0


class TypeTimeouts:
    """Each type's activity timeout from ``GET /v1/types/{type}``, read again after a minute since an operator
    may change it while workers run."""

    SHORTEST = 1.0  # the service's minimum: the safe guess until the type's own is known
    DEFAULT = 30.0

    def __init__(self, client: Client, refresh: float = REFRESH) -> None:
        self._client = client
        self._refresh_after = refresh
        self._known: Dict[str, Tuple[float, float]] = {}
        self._refreshing: Set[str] = set()

    def of(self, type_: str) -> float:
        known = self._known.get(type_)
        if known is None:
            return self._read(type_, None)  # the first job of a type: its heartbeats cannot be paced before
        if time.monotonic() - known[1] >= self._refresh_after and type_ not in self._refreshing:
            # Read again on another thread: a slow or unavailable service must not hold up heartbeats,
            # which go on at the known pace meanwhile.
            self._refreshing.add(type_)
            threading.Thread(target=self._refresh, args=(type_, known), name=f"jobfoundry-type-{type_}",
                             daemon=True).start()
        return known[0]

    def _refresh(self, type_: str, known: Tuple[float, float]) -> None:
        try:
            self._read(type_, known)
        finally:
            self._refreshing.discard(type_)

    def _read(self, type_: str, before: Optional[Tuple[float, float]]) -> float:
        try:
            info = self._client.type(type_)  # a type nobody configured has the defaults
            timeout = info.activity_timeout if info is not None else self.DEFAULT
            self._known[type_] = (timeout, time.monotonic())
            return timeout
        except JobfoundryError as e:
            guess = before[0] if before is not None else self.SHORTEST
            log.warning("cannot read the activity timeout of type %s (%s); heartbeats assume %ss", type_, e, guess)
            if before is not None:
                self._known[type_] = (guess, time.monotonic())
            return guess


class Heartbeats:
    """Beats for every running job each ``fraction`` of its type's activity timeout; jobs due about together go
    in one ``POST /v1/heartbeat``. A halt in an answer stops that job's handler."""

    def __init__(self, client: Client, timeouts: TypeTimeouts, fraction: float, counters: Counters) -> None:
        self._client = client
        self._timeouts = timeouts
        self._fraction = fraction
        self._counters = counters
        self._active: Set[JobContext] = set()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopped = False
        self._batches_served = True

    def add(self, job: JobContext) -> None:
        period = self._period(job)  # may ask the service: before taking the time
        job.next_beat = time.monotonic() + period
        with self._lock:
            self._active.add(job)
        self._wake.set()

    def remove(self, job: JobContext) -> None:
        with self._lock:
            self._active.discard(job)

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()

    def run(self) -> None:
        while not self._stopped:
            try:
                self._round()
            except Exception:  # noqa: B902 - a dead heartbeat thread would let every running job time out
                log.exception("heartbeat round failed; going on")
                self._wake.wait(0.1)

    def _round(self) -> None:
        """One pass: beat the jobs that are due, or wait until one is."""
        now = time.monotonic()
        with self._lock:
            active = list(self._active)
        if not any(job.next_beat <= now for job in active):
            nearest = min((job.next_beat for job in active), default=now + 1.0)
            self._wake.wait(max(0.0, min(nearest, now + 1.0) - now))
            self._wake.clear()
            return
        # A request goes out anyway, so every job past half its period beats with it: jobs that drifted
        # apart come back into one batch instead of one request each.
        due = [job for job in active if job.next_beat - now <= self._period(job) / 2]
        for start in range(0, len(due), MAX_BATCH):
            self._beat(due[start:start + MAX_BATCH])

    def _beat(self, jobs: List[JobContext]) -> None:
        progress = [job.take_progress() for job in jobs]
        calls = [Heartbeat.of(job.leased, data) for job, data in zip(jobs, progress)]
        try:
            results = self._batch(calls) if len(calls) > 1 and self._batches_served else None
            if results is None:
                self._counters.add(heartbeat_calls=len(calls))
                results = [self._single(call) for call in calls]
        except JobfoundryError as e:
            log.warning("heartbeat of %d job(s) failed: %s", len(jobs), e)
            now = time.monotonic()
            for job, data in zip(jobs, progress):
                job.restore_progress(data)
                job.next_beat = now + self._period(job) / 2  # the lease lasts a whole timeout: try again soon
            return
        for job, result in zip(jobs, results):
            self._answered(job, result)

    def _batch(self, calls: List[Heartbeat]) -> Optional[List[ItemResult]]:
        """The batch's results, or None if the service has no batch call (then: one by one)."""
        try:
            results = self._client.heartbeat_batch(calls)
        except ProblemError as e:
            if not e.unknown_path:
                raise
            self._batches_served = False
            log.warning("the service does not serve POST /v1/heartbeat; sending heartbeats one by one")
            return None
        self._counters.add(heartbeat_batches=1)
        return results

    def _single(self, call: Heartbeat) -> ItemResult:
        try:
            return ItemResult(200, self._client.heartbeat(call))
        except HaltError as e:
            return ItemResult(409, None, e.reason)
        except ProblemError as e:
            if e.not_found:
                return ItemResult(404, None, "removed")
            raise

    def _answered(self, job: JobContext, result: ItemResult) -> None:
        if result.halted and job.finishing:
            self.remove(job)  # a beat that crossed the job's finish: the finish's answer tells what happened
        elif result.halted:
            self.remove(job)
            if job.halt(result.reason or "removed"):
                self._counters.add(halted=1)
                log.info("job %s/%s halted (%s): its handler is stopped", job.job.type, job.job.id, job.halt_reason)
        elif result.ok:
            job.next_beat = time.monotonic() + self._period(job)
        else:
            log.warning("heartbeat of %s/%s answered %s", job.job.type, job.job.id, result.status)
            job.next_beat = time.monotonic() + self._period(job) / 2

    def _period(self, job: JobContext) -> float:
        return self._timeouts.of(job.job.type) * self._fraction


class Finishes:
    """Sends finishes on one thread; whatever is ready when a request can go goes in it, so under load one
    ``POST /v1/finish`` carries many, and when idle each job is finished as soon as its handler returns."""

    def __init__(self, client: Client, heartbeats: Heartbeats, counters: Counters) -> None:
        self._client = client
        self._heartbeats = heartbeats
        self._counters = counters
        self._queue: "queue.Queue[Tuple[JobContext, Finish]]" = queue.Queue()
        self._draining = False
        self._batches_served = True

    def submit(self, job: JobContext, finish: Finish) -> None:
        self._queue.put((job, finish))

    def drain_and_stop(self) -> None:
        self._draining = True

    def run(self) -> None:
        while True:
            try:
                first = self._queue.get(timeout=0.05)
            except queue.Empty:
                if self._draining:
                    return
                continue
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                self._send(batch)
            except Exception as e:  # noqa: B902 - a dead finish thread would leave every later job running
                log.exception("finishing %d job(s) failed", len(batch))
                self._lost([item for item in batch if not item[0].released], JobfoundryError(repr(e)))

    def _send(self, batch: List[Tuple[JobContext, Finish]]) -> None:
        if len(batch) > 1 and self._batches_served:
            try:
                results = self._client.finish_batch([finish for _, finish in batch])
            except ProblemError as e:
                if not e.unknown_path:
                    self._lost(batch, e)
                    return
                # A service older than the batch calls: finish one by one rather than lose the finishes.
                self._batches_served = False
                log.warning("the service does not serve POST /v1/finish; finishing jobs one by one")
            except JobfoundryError as e:
                self._lost(batch, e)
                return
            else:
                self._counters.add(finish_batches=1)
                self._counters.most("largest_finish_batch", len(batch))
                for item, result in zip(batch, results):
                    self._done(item, result)
                return
        for item in batch:
            self._counters.add(finish_calls=1)
            try:
                self._client.finish(item[1])
                self._done(item, ItemResult(200))
            except HaltError as e:
                self._done(item, ItemResult(409, None, e.reason))
            except JobfoundryError as e:
                self._lost([item], e)

    def _done(self, item: Tuple[JobContext, Finish], result: ItemResult) -> None:
        job, finish = item
        if result.ok:
            self._counters.add(**{"succeeded" if finish.outcome == "succeeded" else "failed": 1})
        elif result.halted:
            if job.halt(result.reason or "removed"):
                self._counters.add(halted=1)
        else:
            self._counters.add(lost_finishes=1)
            log.warning("finish of %s/%s answered %s", finish.type, finish.id, result.status)
        self._release(job)

    def _lost(self, batch: List[Tuple[JobContext, Finish]], e: JobfoundryError) -> None:
        # The retries are spent: the job runs again after its activity timeout, as if this worker had died.
        log.warning("%d finish(es) could not be sent: %s", len(batch), e)
        for job, _ in batch:
            self._counters.add(lost_finishes=1)
            self._release(job)

    def _release(self, job: JobContext) -> None:
        if job.released:
            return
        job.released = True
        self._heartbeats.remove(job)
        self._counters.add(running=-1)


__all__ = ["Counters", "Finishes", "Heartbeats", "TypeTimeouts"]
