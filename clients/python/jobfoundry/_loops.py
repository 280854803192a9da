"""The worker's heartbeat and finish threads, and the activity timeouts they pace heartbeats by."""
from __future__ import annotations

import dataclasses
import logging
import queue
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

from ._context import JobContext
from .client import Client, clean_text
from .errors import HaltError, JobfoundryError, ProblemError
from .models import UNSET, Finish, Heartbeat, ItemResult

log = logging.getLogger("jobfoundry.worker")
MAX_BATCH = 1000
#: How long a finish is kept while the service cannot be reached (a restart, a deploy), in seconds.
LOST_FINISH_PATIENCE = 600.0
#: How often such a finish is sent again, in seconds.
LOST_FINISH_AGAIN = 5.0


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
            # An accept can hand this worker a job it still runs under an older lease: that run's lease was lost
            # (its activity timeout passed, say after an operator shortened it). Only the newest lease is the job's,
            # so the older run is halted as the service would answer its next heartbeat. Replacing it here, in one
            # step, keeps one lease per job in every heartbeat batch: the service refuses a batch that names a job
            # twice, whole.
            older = [other for other in self._active if other.key == job.key]
            self._active.difference_update(older)
            self._active.add(job)
        self._wake.set()
        for other in older:
            if other.finishing:
                continue  # its finish is on its way, and the service's answer to it settles that run
            if other.halt("lease-lost"):
                self._counters.add(halted=1)
                log.info("job %s/%s was accepted again: the run under the older lease is halted", *job.key)

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
            results = self._deliver(calls)
        except JobfoundryError as e:
            log.warning("heartbeat of %d job(s) failed: %s", len(jobs), e)
            now = time.monotonic()
            for job, data in zip(jobs, progress):
                job.restore_progress(data)
                job.next_beat = now + self._period(job) / 2  # the lease lasts a whole timeout: try again soon
            return
        for job, result in zip(jobs, results):
            self._answered(job, result)

    def _deliver(self, calls: List[Heartbeat]) -> List[ItemResult]:
        if len(calls) > 1 and self._batches_served:
            try:
                results = self._client.heartbeat_batch(calls)
                self._counters.add(heartbeat_batches=1)
                return results
            except ProblemError as e:
                if e.unknown_path:
                    self._batches_served = False
                    log.warning("the service does not serve POST /v1/heartbeat; sending heartbeats one by one")
                elif e.refused_for_good:
                    # Refused whole for what some items hold: sent again as it is, it would be refused again, for
                    # good, while every lease in it runs out. One by one, each item gets its own answer.
                    log.warning("a heartbeat batch of %d was refused (%s); sending its items one by one", len(calls), e)
                else:
                    raise
        self._counters.add(heartbeat_calls=len(calls))
        return [self._single(call) for call in calls]

    def _single(self, call: Heartbeat) -> ItemResult:
        try:
            return ItemResult(200, self._client.heartbeat(call))
        except HaltError as e:
            return ItemResult(409, None, e.reason)
        except ProblemError as e:
            if e.not_found:
                return ItemResult(404, None, "removed")
            if e.refused_for_good and call.data is not UNSET:
                # The progress is what the service refuses (too large, say): the lease matters more than it.
                log.warning("progress of %s/%s refused (%s); it is dropped", call.type, call.id, e)
                return self._single(dataclasses.replace(call, data=UNSET))
            return ItemResult(e.status)

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
        #: Finishes the service could not be reached for: (when to send again, the finish).
        self._later: List[Tuple[float, Tuple[JobContext, Finish]]] = []
        #: When each of those first failed, by its job's context.
        self._first_lost: Dict[int, float] = {}
        self._draining = False
        self._give_up_at = float("inf")
        self._batches_served = True

    def submit(self, job: JobContext, finish: Finish) -> None:
        self._queue.put((job, finish))

    def drain_and_stop(self, give_up_at: Optional[float] = None) -> None:
        """Sends what is queued, then ends; finishes kept while the service could not be reached are sent again
        until ``give_up_at`` (``time.monotonic()``), then given up."""
        self._give_up_at = give_up_at if give_up_at is not None else time.monotonic()
        self._draining = True

    def run(self) -> None:
        while True:
            due = self._due_again()
            try:
                first = due.pop(0) if due else self._queue.get(timeout=0.05)
            except queue.Empty:
                if self._draining and self._later and time.monotonic() >= self._give_up_at:
                    given_up, self._later = self._later, []
                    log.warning("%d finish(es) could not be sent before the shutdown's deadline", len(given_up))
                    for _, (job, _) in given_up:
                        self._counters.add(lost_finishes=1)
                        self._release(job)
                if self._draining and not self._later:
                    return
                continue
            batch = [first] + due
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

    def _send(self, batch: List[Tuple[JobContext, Finish]], refused: bool = False) -> None:
        batch = self._current(batch)
        if len(batch) > 1 and self._batches_served:
            try:
                results = self._client.finish_batch([finish for _, finish in batch])
            except ProblemError as e:
                if e.unknown_path:
                    # A service older than the batch calls: finish one by one rather than lose the finishes.
                    self._batches_served = False
                    log.warning("the service does not serve POST /v1/finish; finishing jobs one by one")
                elif e.refused_for_good:
                    invalid = _invalid_items(e, len(batch))
                    if invalid and not refused:
                        # The service names the items it refuses (a result over its data limit, say), and changed
                        # nothing: those jobs are finished failed, saying why, and the batch goes again with the
                        # others as they were.
                        log.warning("%d of %d finish(es) refused: %s", len(invalid), len(batch),
                                    "; ".join(invalid.values()))
                        self._send([(job, _unsendable(finish, invalid[i])) if i in invalid else (job, finish)
                                    for i, (job, finish) in enumerate(batch)], refused=True)
                        return
                    # Refused whole for what some items hold: one by one, each item gets its own answer, and the
                    # good ones are not lost with the bad.
                    log.warning("a finish batch of %d was refused (%s); finishing one by one", len(batch), e)
                else:
                    self._lost(batch, e)
                    return
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
            self._single(item)

    def _single(self, item: Tuple[JobContext, Finish], refused: bool = False) -> None:
        self._counters.add(finish_calls=1)
        try:
            self._client.finish(item[1])
            self._done(item, ItemResult(200))
        except HaltError as e:
            self._done(item, ItemResult(409, None, e.reason))
        except ProblemError as e:
            if e.refused_for_good and not refused:
                self._single((item[0], _unsendable(item[1], e.detail or str(e))), refused=True)
            else:
                self._lost([item], e)
        except JobfoundryError as e:
            self._lost([item], e)

    def _current(self, batch: List[Tuple[JobContext, Finish]]) -> List[Tuple[JobContext, Finish]]:
        """The finishes still to send, one per job. A job accepted again while an older run's finish waited has two
        here: only the newest lease is the job's, so the older run is settled as the service would answer it,
        lease lost, and the batch, which the service refuses whole when it names a job twice, names it once."""
        newest: Dict[Tuple[str, str], JobContext] = {}
        for job, _ in batch:
            if job.key not in newest or newest[job.key].seq < job.seq:
                newest[job.key] = job
        current = []
        for item in batch:
            job = item[0]
            if job.halted or newest[job.key] is not job:
                if job.halt("lease-lost"):
                    self._counters.add(halted=1)
                self._release(job)
            else:
                current.append(item)
        return current

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

    def _due_again(self) -> List[Tuple[JobContext, Finish]]:
        """The finishes set aside by :meth:`_lost` whose time to be sent again has come."""
        now = time.monotonic()
        due = [entry for entry in self._later if entry[0] <= now]
        if due:
            self._later = [entry for entry in self._later if entry[0] > now]
        return [entry[1] for entry in due]

    def _lost(self, batch: List[Tuple[JobContext, Finish]], e: JobfoundryError) -> None:
        """The retries are spent. While the service cannot be reached (a restart, a deploy), a finish is kept and
        sent again every few seconds for up to ``LOST_FINISH_PATIENCE``, its job's heartbeats going on: the job's
        lease holds meanwhile, and the service answers lease-lost if it no longer does. Given up, or refused for
        another reason, the job runs again after its activity timeout, as if this worker had died."""
        unreachable = not isinstance(e, ProblemError) or e.status >= 500
        now = time.monotonic()
        kept = 0
        for item in batch:
            first = self._first_lost.pop(id(item[0]), now)
            if unreachable and now - first < LOST_FINISH_PATIENCE and now < self._give_up_at:
                self._first_lost[id(item[0])] = first
                self._later.append((now + LOST_FINISH_AGAIN, item))
                kept += 1
            else:
                self._counters.add(lost_finishes=1)
                self._release(item[0])
        if kept:
            log.warning("%d finish(es) could not be sent: %s; sending again in %g s", kept, e, LOST_FINISH_AGAIN)
        if kept < len(batch):
            log.warning("%d finish(es) could not be sent: %s", len(batch) - kept, e)

    def _release(self, job: JobContext) -> None:
        self._first_lost.pop(id(job), None)
        if job.released:
            return
        job.released = True
        self._heartbeats.remove(job)
        self._counters.add(running=-1)


def _invalid_items(e: ProblemError, count: int) -> Dict[int, str]:
    """The items a batch's 400 names (``errors``: index and detail), or nothing if it names none usably."""
    errors = e.member("errors")
    invalid: Dict[int, str] = {}
    if not isinstance(errors, list):
        return {}
    for entry in errors:
        index = entry.get("index") if isinstance(entry, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
            return {}
        invalid[index] = str(entry.get("detail") or entry.get("field") or "invalid")
    return invalid


#: The service keeps this much of an attempt's error in the job's history; the reason fits in it.
MAX_REASON = 500


def _unsendable(finish: Finish, detail: str) -> Finish:
    """A failed finish instead of one the service refused, saying why: the job then runs again as after a failure
    (or ends failed), where a lost finish would hold it until its activity timeout and run it again anyway."""
    what = "result" if finish.outcome == "succeeded" else "error"
    detail = re.sub(r"jobs\[\d+\]\.", "", detail)  # the item's place in a batch means nothing to the job's reader
    reason = clean_text(f"the service refused the handler's {what}: {detail}", MAX_REASON)
    return Finish(finish.type, finish.id, finish.lease, "failed", UNSET, reason)


__all__ = ["Counters", "Finishes", "Heartbeats", "TypeTimeouts"]
