"""The values the API exchanges: jobs, batch items and their answers, and the retry policy."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional, Tuple, Union

#: Marks a member left out of a request (the service reads it as "unchanged"), as opposed to ``None`` (JSON null).
UNSET: Any = type("Unset", (), {"__repr__": lambda self: "UNSET", "__bool__": lambda self: False})()


def parse_time(text: Optional[str]) -> Optional[datetime]:
    """An RFC 3339 UTC time as the service writes it (``2026-11-21T10:00:00.25Z``), as an aware datetime."""
    if text is None:
        return None
    body = text[:-1] if text.endswith("Z") else text
    if "." in body:  # fromisoformat of Python 3.9/3.10 takes 3 or 6 fraction digits only
        whole, fraction = body.split(".", 1)
        body = whole + "." + (fraction + "000000")[:6]
    return datetime.fromisoformat(body).replace(tzinfo=timezone.utc)


def format_time(when: datetime) -> str:
    """An aware datetime as RFC 3339 UTC; a naive one is taken as UTC."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class JobRef:
    """A job named by its type and id, as a job's ``after`` and ``waiting_for`` name its dependencies."""

    type: str
    id: str

    def to_json(self) -> Dict[str, str]:
        return {"type": self.type, "id": self.id}

    @staticmethod
    def from_json(n: Dict[str, Any]) -> "JobRef":
        return JobRef(n["type"], n["id"])


@dataclass(frozen=True)
class Job:
    """A job as the service shows it. ``json`` is the object as received, with members not modelled here."""

    type: str
    id: str
    state: str
    result: Optional[str]
    data: Any
    group: str
    priority: str
    scheduled_at: Optional[datetime]
    created_at: Optional[datetime]
    updated_at: Optional[datetime]
    started_at: Optional[datetime]
    finished_at: Optional[datetime]
    repeat: Optional[str]
    attempt: int
    max_attempts: int
    last_error: Optional[str]
    resubmit: bool
    worker: Optional[str]
    #: The jobs this one waits for, as given when it was added (empty if none).
    after: List[JobRef]
    #: What the job does if one of ``after`` does not succeed: ``"cancel"`` (the default) or ``"run"``.
    after_failure: str
    #: Those of ``after`` not yet done: while it is not empty the pending job is not due.
    waiting_for: List[JobRef]
    json: Dict[str, Any] = field(repr=False, compare=False)

    @property
    def ref(self) -> JobRef:
        """This job as a reference, e.g. for another job's ``after``."""
        return JobRef(self.type, self.id)

    @staticmethod
    def from_json(n: Dict[str, Any]) -> "Job":
        # A service older than dependencies sends neither member: no dependencies.
        return Job(n["type"], n["id"], n["state"], n.get("result"), n.get("data"), n.get("group", ""),
                   n.get("priority", "low"), parse_time(n.get("scheduledAt")), parse_time(n.get("createdAt")),
                   parse_time(n.get("updatedAt")), parse_time(n.get("startedAt")), parse_time(n.get("finishedAt")),
                   n.get("repeat"), int(n.get("attempt", 0)), int(n.get("maxAttempts", 0)), n.get("lastError"),
                   bool(n.get("resubmit", False)), n.get("worker"),
                   [JobRef.from_json(r) for r in n.get("after") or []], n.get("afterFailure") or "cancel",
                   [JobRef.from_json(r) for r in n.get("waitingFor") or []], n)


@dataclass(frozen=True)
class LeasedJob:
    """A job handed to this processor by an accept, with the lease every processor call on it carries."""

    job: Job
    lease: str

    @property
    def type(self) -> str:
        return self.job.type

    @property
    def id(self) -> str:
        return self.job.id

    @property
    def ref(self) -> JobRef:
        return self.job.ref


#: What ``after`` takes: a :class:`JobRef`, a :class:`Job` or :class:`LeasedJob`, a ``(type, id)`` pair, or a
#: ``{"type", "id"}`` mapping as the API writes it.
JobLike = Union[JobRef, Job, LeasedJob, Tuple[str, str], Dict[str, str]]


def ref_json(job: Any) -> Dict[str, str]:
    """One entry of ``after`` as the service takes it."""
    if isinstance(job, JobRef):
        return job.to_json()
    if isinstance(job, (Job, LeasedJob)):
        return job.ref.to_json()
    if isinstance(job, tuple) and len(job) == 2:
        return {"type": job[0], "id": job[1]}
    if isinstance(job, dict) and set(job) == {"type", "id"}:
        return dict(job)
    raise TypeError(f"after takes JobRef, Job, (type, id) or {{'type', 'id'}}, not {job!r}")


@dataclass(frozen=True)
class Concurrency:
    """A type's concurrency limit: jobs of the type (``max``) and of one group (``per_group``) running at once,
    across replicas; ``None`` is no limit. ``Concurrency()`` lifts both."""

    max: Optional[int] = None
    per_group: Optional[int] = None

    def to_json(self) -> Dict[str, Any]:
        return {"max": self.max, "perGroup": self.per_group}

    @staticmethod
    def from_json(n: Optional[Dict[str, Any]]) -> "Concurrency":
        n = n or {}  # absent (a service older than limits) or null: no limit
        return Concurrency(n.get("max"), n.get("perGroup"))


@dataclass(frozen=True)
class RateLimit:
    """A type's rate limit: at most ``count`` jobs start in any ``seconds`` window (millisecond precision), of
    the whole type or, with ``per_group``, of each group, across replicas."""

    count: int
    seconds: float
    per_group: bool = False

    def to_json(self) -> Dict[str, Any]:
        seconds = int(self.seconds) if float(self.seconds).is_integer() else round(self.seconds, 3)
        return {"count": self.count, "seconds": seconds, "perGroup": self.per_group}

    @staticmethod
    def from_json(n: Optional[Dict[str, Any]]) -> "Optional[RateLimit]":
        if not n:
            return None
        return RateLimit(int(n["count"]), float(n["seconds"]), bool(n.get("perGroup", False)))


@dataclass(frozen=True)
class TypeInfo:
    """A type's settings and counts (``GET /v1/types/{type}``); ``activity_timeout`` in seconds."""

    type: str
    activity_timeout: float
    max_attempts: int
    counts: Dict[str, int]
    #: How many of its jobs may run at once (``Concurrency()`` when no limit is set).
    concurrency: Concurrency
    #: How many of its jobs may start per window, or None when none is set.
    rate_limit: Optional[RateLimit]
    json: Dict[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def from_json(n: Dict[str, Any]) -> "TypeInfo":
        return TypeInfo(n["type"], float(n["activityTimeout"]), int(n.get("maxAttempts", 0)),
                        dict(n.get("counts") or {}), Concurrency.from_json(n.get("concurrency")),
                        RateLimit.from_json(n.get("rateLimit")), n)

    @property
    def paused(self) -> bool:
        """Whether the type is paused: it hands out no job until resumed."""
        return bool(self.json.get("paused", False))


@dataclass(frozen=True)
class JobEvent:
    """One event of a job's stream (:meth:`Client.events`): ``job`` as it is now, or None when the job was removed,
    which ends the stream."""

    type: str
    id: str
    job: Optional[Job]

    @property
    def removed(self) -> bool:
        return self.job is None


@dataclass(frozen=True)
class JobPage:
    """One page of a job listing, in (type, id) order. A filtered page may hold fewer jobs than asked for, even
    none, while ``next`` is not None: the service scans a bounded number of jobs per call."""

    jobs: List[Job]
    #: The cursor of the next page, or None on the last page.
    next: Optional[str]


@dataclass(frozen=True)
class FairnessGroup:
    """A fairness group of a type with pending or running jobs; ``""`` is the default group, ``pending``
    includes ``due``."""

    group: str
    pending: int
    due: int
    running: int


@dataclass(frozen=True)
class GroupPage:
    """One page of a type's fairness groups, in name order; ``next`` is None on the last page."""

    groups: List[FairnessGroup]
    next: Optional[str]


@dataclass(frozen=True)
class BulkResult:
    """What a bulk action did: the jobs its filter matched (up to its limit), and those it changed."""

    matched: int
    changed: int


@dataclass(frozen=True)
class RepeatPreview:
    """What the service makes of a repeat expression (:meth:`Client.preview_repeat`): the expression in the
    canonical form a job stores it in (upper case, single spaces), and the next run times, each counted as if the
    run before had been scheduled, started and finished at its time (fewer than asked when the schedule runs past
    the year 9999)."""

    normalized: str
    next: List[datetime]


@dataclass(frozen=True)
class Identity:
    """The caller as the service sees it (:meth:`Operations.me`): the token's name (``"anonymous"`` without one),
    its effective roles in the service's order (``admin`` includes the others; ``producer`` and ``worker`` include
    ``viewer``), and the type globs it may touch, or None for every type."""

    name: str
    roles: List[str]
    types: Optional[List[str]]


@dataclass(frozen=True)
class Saved:
    """The answer to a ``PUT`` or one batch-create item: ``created`` is True for ``201``, False for ``200``."""

    created: bool
    job: Job


@dataclass(frozen=True)
class NewJob:
    """One batch-create item: with an ``id`` a ``PUT``, without one a ``POST`` with a generated id.
    ``members`` are the create members (``data``, ``scheduledAt``, ``priority``, ``group``, ``repeat``,
    ``maxAttempts``, ``after``, ``afterFailure``) as the API names them (:func:`job_members` makes them from
    keyword arguments); ``after`` may hold anything :func:`ref_json` takes, and may name earlier items."""

    type: str
    id: Optional[str] = None
    members: Dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Finish:
    """One finish. ``data`` left UNSET keeps the job's data; ``None`` removes it."""

    type: str
    id: str
    lease: str
    outcome: str  # "succeeded" or "failed"
    data: Any = UNSET
    error: Optional[str] = None

    @staticmethod
    def succeeded(job: LeasedJob, data: Any = UNSET) -> "Finish":
        return Finish(job.type, job.id, job.lease, "succeeded", data)

    @staticmethod
    def failed(job: LeasedJob, error: str) -> "Finish":
        return Finish(job.type, job.id, job.lease, "failed", UNSET, error)


@dataclass(frozen=True)
class Heartbeat:
    """One heartbeat; ``data`` (progress) left UNSET keeps the job's data."""

    type: str
    id: str
    lease: str
    data: Any = UNSET

    @staticmethod
    def of(job: LeasedJob, data: Any = UNSET) -> "Heartbeat":
        return Heartbeat(job.type, job.id, job.lease, data)


@dataclass(frozen=True)
class ItemResult:
    """The answer to one item of a batch finish or heartbeat: ``200`` done (with ``job``), ``409`` halt (with
    ``reason``), ``404`` no such job."""

    status: int
    job: Optional[Job] = None
    reason: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def halted(self) -> bool:
        return self.status in (404, 409)


@dataclass(frozen=True)
class RetryPolicy:
    """How calls are repeated after a ``503`` or a lost connection: up to ``max_attempts`` in all, waiting
    ``initial_delay * 2**(n-1)`` seconds capped at ``max_delay``, with equal jitter (between half of that and all
    of it). A ``Retry-After`` from the service is honoured up to ``max_delay``."""

    max_attempts: int = 8
    initial_delay: float = 0.1
    max_delay: float = 5.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if self.initial_delay < 0 or self.max_delay < self.initial_delay:
            raise ValueError("need 0 <= initial_delay <= max_delay")

    def delay(self, attempt: int, retry_after: Optional[float] = None) -> float:
        """Seconds to wait after failed attempt ``attempt`` (from 1)."""
        full = min(self.initial_delay * (2 ** min(attempt - 1, 60)), self.max_delay)
        wait = full / 2 + random.uniform(0, full / 2)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.max_delay))
        return wait


NO_RETRY = RetryPolicy(1, 0.0, 0.0)
