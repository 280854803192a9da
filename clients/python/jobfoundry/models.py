"""The values the API exchanges: jobs, batch items and their answers, and the retry policy."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Dict, Optional

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
    json: Dict[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def from_json(n: Dict[str, Any]) -> "Job":
        return Job(n["type"], n["id"], n["state"], n.get("result"), n.get("data"), n.get("group", ""),
                   n.get("priority", "low"), parse_time(n.get("scheduledAt")), parse_time(n.get("createdAt")),
                   parse_time(n.get("updatedAt")), parse_time(n.get("startedAt")), parse_time(n.get("finishedAt")),
                   n.get("repeat"), int(n.get("attempt", 0)), int(n.get("maxAttempts", 0)), n.get("lastError"),
                   bool(n.get("resubmit", False)), n.get("worker"), n)


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


@dataclass(frozen=True)
class TypeInfo:
    """A type's settings and counts (``GET /v1/types/{type}``); ``activity_timeout`` in seconds."""

    type: str
    activity_timeout: float
    max_attempts: int
    counts: Dict[str, int]
    json: Dict[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def from_json(n: Dict[str, Any]) -> "TypeInfo":
        return TypeInfo(n["type"], float(n["activityTimeout"]), int(n.get("maxAttempts", 0)),
                        dict(n.get("counts") or {}), n)


@dataclass(frozen=True)
class Saved:
    """The answer to a ``PUT`` or one batch-create item: ``created`` is True for ``201``, False for ``200``."""

    created: bool
    job: Job


@dataclass(frozen=True)
class NewJob:
    """One batch-create item: with an ``id`` a ``PUT``, without one a ``POST`` with a generated id.
    ``members`` are the create members (``data``, ``scheduledAt``, ``priority``, ``group``, ``repeat``,
    ``maxAttempts``) as the API names them."""

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
