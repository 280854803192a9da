"""The exceptions this library raises: one root, and a subtype carrying the service's problem document."""
from __future__ import annotations

from typing import Any, Dict, Optional

#: The problem types the service itself writes start so; any other (``about:blank``) is HTTP's own or a proxy's.
SERVICE_TYPES = "tag:jobfoundry.io,"
HALT_TYPE = SERVICE_TYPES + "2026:problem/halt"


class JobfoundryError(Exception):
    """Root of every error of this library: a call that failed after its retries (the service unreachable,
    a lost connection, an unreadable answer), or, as :class:`ProblemError`, a call the service refused."""


class ProblemError(JobfoundryError):
    """The service answered with an RFC 9457 problem document (``application/problem+json``)."""

    def __init__(self, status: int, problem: Optional[Dict[str, Any]]) -> None:
        self.status = status
        self.problem: Dict[str, Any] = problem if isinstance(problem, dict) else {}
        self.type: str = self.problem.get("type") or "about:blank"
        self.title: Optional[str] = self.problem.get("title")
        self.detail: Optional[str] = self.problem.get("detail")
        super().__init__(f"HTTP {status}: {self.detail}" if self.detail else f"HTTP {status}")

    @property
    def unknown_path(self) -> bool:
        """A path the service does not serve at all (HTTP's own 404 or 405), as opposed to a missing job."""
        return self.status in (404, 405) and self.type == "about:blank"

    @property
    def refused_for_good(self) -> bool:
        """A 400 or 413: the service will answer the same request the same way, however often it is sent."""
        return self.status in (400, 413)

    @property
    def not_found(self) -> bool:
        """The service's own 404: no such job (or type). A 404 of any other type is no answer about the job: a
        path nothing serves, say a wrong base URL or a proxy's page."""
        return self.status == 404 and self.type.startswith(SERVICE_TYPES)

    def member(self, name: str) -> Any:
        """An extra member of the problem document, such as ``field``, ``reason`` or ``errors``."""
        return self.problem.get(name)


class HaltError(ProblemError):
    """A processor call was answered ``409`` halt: the lease is no longer the job's, so the processor must stop
    working on it. :attr:`reason` is ``lease-lost``, ``removed`` or ``cancelled``."""

    def __init__(self, problem: Optional[Dict[str, Any]]) -> None:
        super().__init__(409, problem)
        self.reason: Optional[str] = self.problem.get("reason")


class JobInterrupted(BaseException):
    """Raised inside a handler's thread when the worker stops it: the service halted the job, or a shutdown's
    deadline passed. It derives from ``BaseException`` so that a handler's ``except Exception`` does not swallow
    it. Nothing the handler returns or raises afterwards is reported to the service."""
