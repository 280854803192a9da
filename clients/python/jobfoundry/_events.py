"""A job's Server-Sent Events as :class:`JobEvent` s."""
from __future__ import annotations

import json
from typing import Any, Optional

from .errors import JobfoundryError
from .models import Job, JobEvent


class JobEvents:
    """The events of one job's stream (:meth:`Client.events`): an iterator that blocks while it waits for the next
    event, and ends after the job's removal, or when the stream ends. Close it (``close()``, or use it in a
    ``with``) to close the connection; a close from another thread ends a waiting reader quietly. Comments (the
    service's keep-alive) and unknown kinds of event are skipped, as the SSE format asks."""

    def __init__(self, lines: Any) -> None:
        self._lines = lines  # readline() -> Optional[str], close()
        self._ended = False

    def __iter__(self) -> "JobEvents":
        return self

    def __next__(self) -> JobEvent:
        if self._ended:
            raise StopIteration
        try:
            event = self._read()
        except BaseException:
            self.close()  # a broken stream, or an event this client cannot read: the connection goes
            raise
        if event is None or event.removed:
            self._ended = True  # the removal is the last event: nothing is read past it
            self._lines.close()
        if event is None:
            raise StopIteration
        return event

    def close(self) -> None:
        self._ended = True
        self._lines.close()

    def __enter__(self) -> "JobEvents":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _read(self) -> Optional[JobEvent]:
        name, data = "message", None
        while True:
            line = self._lines.readline()
            if line is None:
                return None
            if line == "":
                event = _event(name, data) if data is not None else None
                if event is not None:
                    return event
                name, data = "message", None
            elif line.startswith("event:"):
                name = _strip_one(line[6:])
            elif line.startswith("data:"):
                value = _strip_one(line[5:])
                data = value if data is None else data + "\n" + value


def _strip_one(value: str) -> str:
    """An SSE field's value: one space after the colon is not part of it."""
    return value[1:] if value.startswith(" ") else value


def _event(name: str, data: str) -> Optional[JobEvent]:
    """A job's event from its SSE name and data; None for a kind this client does not know (skipped)."""
    if name not in ("state", "removed"):
        return None
    try:
        body = json.loads(data)
        if name == "state":
            job = Job.from_json(body)
            return JobEvent(job.type, job.id, job)
        return JobEvent(body["type"], body["id"], None)
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise JobfoundryError(f"the service sent a {name} event this client cannot read") from e
