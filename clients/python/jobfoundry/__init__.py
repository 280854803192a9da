"""Jobfoundry client: producer calls (:class:`Client`) and a worker runtime (:class:`Worker`), standard
library only."""
from ._context import JobContext
from ._events import JobEvents
from ._operations import Operations
from .client import Client, job_members
from .errors import HaltError, JobfoundryError, JobInterrupted, ProblemError
from .models import (NO_RETRY, UNSET, BulkResult, Concurrency, FairnessGroup, Finish, GroupPage, Heartbeat, Identity,
                     ItemResult, Job, JobEvent, JobPage, JobRef, LeasedJob, NewJob, RateLimit, RepeatPreview, RetryPolicy,
                     Saved, TypeInfo)
from .worker import Handler, Worker, WorkerStats

__version__ = "0.1.0"

__all__ = [
    "Client", "job_members", "Worker", "WorkerStats", "Handler", "JobContext",
    "JobfoundryError", "ProblemError", "HaltError", "JobInterrupted",
    "Job", "JobRef", "LeasedJob", "TypeInfo", "Concurrency", "RateLimit", "Saved", "NewJob", "Finish", "Heartbeat",
    "ItemResult", "RetryPolicy", "Operations", "JobEvent", "JobEvents", "JobPage", "FairnessGroup", "GroupPage", "BulkResult",
    "RepeatPreview", "Identity",
    "NO_RETRY", "UNSET",
]
