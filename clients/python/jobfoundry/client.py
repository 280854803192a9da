"""The Jobfoundry HTTP API: producer calls, type settings, the processor calls the worker is built on, and the
operator's calls (:attr:`Client.operations`)."""
from __future__ import annotations

import time
from datetime import datetime
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ._events import JobEvents
from ._operations import Operations, _seg
from ._transport import Transport
from .errors import HaltError, JobfoundryError, ProblemError
from .models import (UNSET, Concurrency, Finish, Heartbeat, ItemResult, Job, JobLike, LeasedJob, NewJob, RateLimit,
                     RepeatPreview, RetryPolicy, Saved, TypeInfo, format_time, parse_time, ref_json)

#: The longest wait the service grants a long poll (its default ``jobfoundry.api.max-wait``), in seconds.
MAX_SERVER_WAIT = 300.0


def _job_path(type_: str, id_: str) -> str:
    return f"/v1/jobs/{_seg(type_)}/{_seg(id_)}"


def job_members(data: Any = UNSET, scheduled_at: Optional[datetime] = None, priority: Optional[str] = None,
                group: Optional[str] = None, repeat: Any = UNSET, max_attempts: Optional[int] = None,
                after: Optional[Iterable[JobLike]] = None, after_failure: Optional[str] = None) -> Dict[str, Any]:
    """The members of a create or PUT. Members left out are not sent (the service keeps them, or uses the
    defaults); ``data=None`` means no data and ``repeat=None`` stops repeating. ``after`` is the jobs this one
    waits for (at most 100; :class:`JobRef`, :class:`Job`, ``(type, id)``), ``after=[]`` removes a pending job's
    dependencies; ``after_failure`` is ``"cancel"`` (the default) or ``"run"``."""
    members: Dict[str, Any] = {}
    if data is not UNSET:
        members["data"] = data
    if scheduled_at is not None:
        members["scheduledAt"] = format_time(scheduled_at)
    if priority is not None:
        members["priority"] = priority
    if group is not None:
        members["group"] = group
    if repeat is not UNSET:
        members["repeat"] = repeat
    if max_attempts is not None:
        members["maxAttempts"] = max_attempts
    if after is not None:
        members["after"] = [ref_json(job) for job in after]
    if after_failure is not None:
        members["afterFailure"] = after_failure
    return members


class Client:
    """A client of one Jobfoundry service. Thread-safe: share one per process.

    Calls that may be repeated without changing their effect are retried by the :class:`RetryPolicy` after a
    ``503`` or a lost connection. :meth:`create` and batch items without an id add a job each time they reach the
    service, so they are retried only when the connection could not be made; use :meth:`put` with your own id
    where a duplicate matters. Refusals raise :class:`ProblemError` (:class:`HaltError` for a halt)."""

    def __init__(self, base_url: str, token: Optional[str] = None, retry: Optional[RetryPolicy] = None,
                 timeout: float = 30.0) -> None:
        """``base_url`` like ``http://localhost:8080``; ``token`` is sent as ``Authorization: Bearer``;
        ``timeout`` is how long one call may take beyond a long poll's own wait."""
        self._t = Transport(base_url, token, retry or RetryPolicy(), timeout)
        self._operations = Operations(self._t)

    def close(self) -> None:
        """Closes the kept-alive connections."""
        self._t.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ---- producer calls

    def create(self, type_: str, **members: Any) -> Job:
        """Adds a job with a generated id. Keyword arguments as :func:`job_members` takes them
        (``data``, ``scheduled_at``, ``priority``, ``group``, ``repeat``, ``max_attempts``, ``after``,
        ``after_failure``)."""
        body = job_members(**members)
        return Job.from_json(self._t.send("POST", f"/v1/jobs/{_seg(type_)}", body, idempotent=False).or_raise().body)

    def put(self, type_: str, id_: str, **members: Any) -> Saved:
        """Adds or updates a job by its id (couch_jobs ``add``): new → pending; pending → takes the members;
        running → runs again when it finishes; finished → runs again."""
        answer = self._t.send("PUT", _job_path(type_, id_), job_members(**members), keyed=True).or_raise()
        return Saved(answer.status == 201, Job.from_json(answer.body))

    def create_batch(self, jobs: Sequence[NewJob]) -> List[Saved]:
        """Adds or updates 1–1000 jobs in one request and one transaction (``POST /v1/jobs``). If any item is
        invalid nothing is created; the :class:`ProblemError` carries ``errors`` (index and detail)."""
        items = []
        for job in jobs:
            item = dict(job.members, type=job.type)
            if item.get("after") is not None:
                item["after"] = [ref_json(ref) for ref in item["after"]]
            if job.id is not None:
                item["id"] = job.id
            items.append(item)
        # Named jobs only: under a key, recognized when repeated. The service refuses a key with an item without an
        # id, whose repeat could add that job twice: such a batch is repeated only if it never reached the service.
        named = all(job.id is not None for job in jobs)
        body = self._t.send("POST", "/v1/jobs", {"jobs": items}, idempotent=named, keyed=named).or_raise().body
        return [Saved(r["status"] == 201, Job.from_json(r["job"])) for r in body["jobs"]]

    def preview_repeat(self, repeat: str, count: int = 1, *, at: Optional[datetime] = None) -> RepeatPreview:
        """The next ``count`` (1–100) run times of a repeat expression (``POST /v1/repeat/preview``), counted from
        ``at`` (None: now) as if the run before had been scheduled, started and finished then: a check of an
        expression before a job carries it, e.g. ``"SCHEDULED, +1 HOUR"``, ``"DAILY"``, ``"CRON 0 9 * * MON-FRI"``.
        A bad expression raises ProblemError 400 naming the offending part (``field`` ``repeat``)."""
        body: Dict[str, Any] = {"repeat": repeat, "count": count}
        if at is not None:
            body.update(dict.fromkeys(("scheduledAt", "startedAt", "finishedAt"), format_time(at)))
        # It changes nothing: safe to repeat.
        answer = self._t.send("POST", "/v1/repeat/preview", body).or_raise().body
        return RepeatPreview(answer["normalized"], [parse_time(t) for t in answer["next"]])

    def get(self, type_: str, id_: str) -> Optional[Job]:
        """The job, or None if there is none. A 404 that is not the service's (a wrong base URL) raises
        ProblemError."""
        answer = self._t.send("GET", _job_path(type_, id_))
        if answer.status == 404 and answer.problem().not_found:
            return None
        return Job.from_json(answer.or_raise().body)

    def wait_for(self, type_: str, id_: str, state: str, timeout: float) -> Job:
        """Waits, without polling, until the job is in ``state`` (pending, running, finished) or ``timeout``
        seconds pass; compare the answer's state to tell which. A missing job raises ProblemError 404."""
        deadline = time.monotonic() + timeout

        def poll() -> Tuple[str, float]:
            # Each attempt asks for what is left: a repeat after a lost connection must not wait the whole again.
            wait = max(0.0, min(deadline - time.monotonic(), MAX_SERVER_WAIT))
            return f"{_job_path(type_, id_)}?waitFor={state}&timeout={int(wait * 1000)}", wait

        while True:
            job = Job.from_json(self._t.send("GET", _job_path(type_, id_), poll=poll).or_raise().body)
            if job.state == state or time.monotonic() >= deadline:
                return job

    def events(self, type_: str, id_: str, idle_timeout: float = 60.0) -> JobEvents:
        """Follows a job's changes (``GET .../events``): first the job as it is, then each change (a burst of
        changes comes as its latest state), then its removal, which ends the iteration. The iterator blocks while it
        waits for the next event; close it (``close()`` from any thread, which ends it quietly, or a ``with``
        block) to close the connection. One that ends without the removal (the service restarted) may be opened
        again, and starts with the job as it is then; one whose connection breaks, or stays silent for
        ``idle_timeout`` seconds (the service's keep-alive prevents that), raises JobfoundryError. A missing job
        raises ProblemError 404 here."""
        return JobEvents(self._t.lines(_job_path(type_, id_) + "/events", idle_timeout))

    def cancel(self, type_: str, id_: str) -> Job:
        """Cancels a job: pending → cancelled now; running → its processor is halted; finished → unchanged."""
        return Job.from_json(self._t.send("POST", _job_path(type_, id_) + "/cancel", {}).or_raise().body)

    def update(self, type_: str, id_: str, **members: Any) -> Job:
        """Changes some of a job's members (``PATCH``): ``priority``, ``repeat`` and ``max_attempts`` of any job,
        ``scheduled_at``, ``data`` and ``group`` of a pending one; members left out keep their value. Dependencies
        are not changed here (``after`` is refused with a 400): a :meth:`put` of a pending job replaces them. A
        missing job raises ProblemError 404, the data of a running one 409."""
        body = job_members(**members)
        return Job.from_json(self._t.send("PATCH", _job_path(type_, id_), body).or_raise().body)

    def resubmit(self, type_: str, id_: str, scheduled_at: Optional[datetime] = None) -> Job:
        """Runs a job again (couch_jobs ``resubmit``): finished → pending, due at ``scheduled_at`` (None: now);
        pending → moves to ``scheduled_at`` if given; running → runs again when its processor finishes it. Repeated
        after a 503 under the call's ``Idempotency-Key``, which the service recognizes: a repeat never runs the job
        once more."""
        body = {} if scheduled_at is None else {"scheduledAt": format_time(scheduled_at)}
        answer = self._t.send("POST", _job_path(type_, id_) + "/resubmit", body, keyed=True)
        return Job.from_json(answer.or_raise().body)

    def remove(self, type_: str, id_: str) -> bool:
        """Removes every trace of a job (its processor is halted). False if there was no such job."""
        answer = self._t.send("DELETE", _job_path(type_, id_))
        if answer.status == 404 and answer.problem().not_found:
            return False
        answer.or_raise()
        return True

    # ---- types

    def type(self, type_: str) -> Optional[TypeInfo]:
        """A type's settings and counts, or None for a type never used or configured."""
        answer = self._t.send("GET", f"/v1/types/{_seg(type_)}")
        if answer.status == 404 and answer.problem().not_found:
            return None
        return TypeInfo.from_json(answer.or_raise().body)

    def configure_type(self, type_: str, settings: Mapping[str, Any]) -> TypeInfo:
        """Changes a type's settings (``PUT /v1/types/{type}``; durations in seconds); others keep their value.
        ``concurrency`` and ``rateLimit`` may be :class:`Concurrency` and :class:`RateLimit` (or the API's dicts);
        ``"rateLimit": None`` lifts the rate limit, ``"concurrency": Concurrency()`` both concurrency limits."""
        body = {name: value.to_json() if isinstance(value, (Concurrency, RateLimit)) else value
                for name, value in settings.items()}
        return TypeInfo.from_json(self._t.send("PUT", f"/v1/types/{_seg(type_)}", body).or_raise().body)

    # ---- processor calls

    def accept(self, types: Iterable[str], max_jobs: int = 1, wait: float = 0.0,
               worker: Optional[str] = None) -> List[LeasedJob]:
        """Takes up to ``max_jobs`` (1–100) due jobs of the named types or globs, each under a lease, waiting up to
        ``wait`` seconds on the service for one to become due. Empty if none was."""
        body: Dict[str, Any] = {"types": list(types), "max": max_jobs, "wait": int(wait * 1000)}
        if worker is not None:
            body["worker"] = worker
        # A repeated accept may leave a job its lost answer took running until its activity timeout brings it
        # back: a smaller cost than a worker that gives up on the first lost connection.
        answer = self._t.send("POST", "/v1/accept", body, long_poll=wait).or_raise()
        if answer.status == 204 or not answer.body:
            return []
        return [LeasedJob(Job.from_json(n), n["lease"]) for n in answer.body]

    def heartbeat(self, beat: Heartbeat) -> Job:
        """Renews a job's activity timeout, with progress data if given. Raises HaltError when the processor
        must stop."""
        body: Dict[str, Any] = {"lease": beat.lease}
        if beat.data is not UNSET:
            body["data"] = beat.data
        return Job.from_json(self._t.send("POST", _job_path(beat.type, beat.id) + "/heartbeat", body).or_raise().body)

    def heartbeat_batch(self, beats: Sequence[Heartbeat]) -> List[ItemResult]:
        """Heartbeats for 1–1000 jobs in one request (``POST /v1/heartbeat``); items are independent."""
        items = []
        for b in beats:
            item: Dict[str, Any] = {"type": b.type, "id": b.id, "lease": b.lease}
            if b.data is not UNSET:
                item["data"] = b.data
            items.append(item)
        return self._batch("/v1/heartbeat", items)

    def finish(self, finish: Finish) -> Job:
        """Finishes a job. Raises HaltError when the lease is no longer the job's."""
        body = _finish_body(finish)
        return Job.from_json(self._t.send("POST", _job_path(finish.type, finish.id) + "/finish", body).or_raise().body)

    def finish_batch(self, finishes: Sequence[Finish]) -> List[ItemResult]:
        """Finishes 1–1000 jobs in one request and transaction (``POST /v1/finish``); items are independent."""
        return self._batch("/v1/finish", [dict(_finish_body(f), type=f.type, id=f.id) for f in finishes])

    def _batch(self, path: str, items: List[Dict[str, Any]]) -> List[ItemResult]:
        body = self._t.send("POST", path, {"jobs": items}).or_raise().body
        results = [ItemResult(r["status"], Job.from_json(r["job"]) if r.get("job") else None, r.get("reason"))
                   for r in body["results"]]
        if len(results) != len(items):
            raise JobfoundryError(f"{path} answered {len(results)} results for {len(items)} items")
        return results

    @property
    def operations(self) -> Operations:
        """The operator's calls: job listings, every type, pause and resume, fairness groups, bulk actions."""
        return self._operations

    # The transport, for the worker's abort of a waiting accept.
    @property
    def transport(self) -> Transport:
        return self._t


def _finish_body(finish: Finish) -> Dict[str, Any]:
    body: Dict[str, Any] = {"lease": finish.lease, "outcome": finish.outcome}
    if finish.data is not UNSET:
        body["data"] = finish.data
    if finish.error is not None:
        body["error"] = clean_text(finish.error, MAX_ERROR)
    return body


#: The longest ``error`` the service keeps (code points); a longer one is cut there anyway.
MAX_ERROR = 4096


def clean_text(text: str, limit: int) -> str:
    """``text`` as the service takes it: an exception's message may hold lone surrogates (from a file name read with
    surrogateescape, say), which make the whole finish, and every finish in its batch, invalid. They become U+FFFD
    (paired ones join into their character), and text beyond ``limit`` code points, which the service would cut,
    is not sent."""
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text[:limit]


__all__ = ["Client", "job_members", "HaltError", "ProblemError"]
