"""The operator's calls: job listings, every type, pause, resume and deletion of a type, fairness groups, bulk
actions, and who the caller is."""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional
from urllib.parse import quote

from ._transport import Transport
from .models import BulkResult, FairnessGroup, GroupPage, Identity, Job, JobPage, TypeInfo

#: The page :meth:`Operations.all_jobs` asks for by default: a job carries its data, up to 64 KiB of it.
DEFAULT_PAGE = 100
#: How much longer than a call's timeout a bulk action may take, in seconds per job it may act on.
BULK_SECONDS_PER_JOB = 0.01

BULK_ACTIONS = ("cancel", "retry", "remove")


def _seg(name: str) -> str:
    """A name as a path segment or query value: percent-encoded but for RFC 3986's unreserved characters."""
    return quote(name, safe="-._~")


def _query(path: str, params: Dict[str, Any]) -> str:
    present = [f"{name}={_seg(str(value))}" for name, value in params.items() if value is not None]
    return path + ("?" + "&".join(present) if present else "")


class Operations:
    """Reached as :attr:`Client.operations`. The reads (listings, types, groups) need the ``viewer`` role, pause,
    resume, deletion and bulk ``admin``, for the types the token may see. Thread-safe, like the client it comes
    from."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def jobs(self, type_: Optional[str] = None, *, state: Optional[str] = None, result: Optional[str] = None,
             group: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None) -> JobPage:
        """One page of jobs (``GET /v1/jobs``) in (type, id) order. ``type_`` is a name or a glob (``*``, ``?``),
        None for every type; ``state`` pending, running or finished; ``result`` succeeded, failed or cancelled
        (finished jobs); ``group`` a fairness group (``""`` the default one); ``limit`` 1–1000 (None: the
        service's default page); ``cursor`` the previous page's ``next``."""
        return self._page(_query("/v1/jobs", {"type": type_, "state": state, "result": result, "group": group,
                                              "limit": limit, "cursor": cursor}))

    def recently_finished(self, type_: str, *, result: Optional[str] = None, group: Optional[str] = None,
                          limit: Optional[int] = None, cursor: Optional[str] = None) -> JobPage:
        """One page of a type's finished jobs, the latest finished first (``GET /v1/jobs/{type}?order=recent``):
        where the latest failures are, e.g. ``recently_finished("email", result="failed", limit=20)``. ``type_`` is
        a name (not a glob); ``result`` succeeded, failed or cancelled, None for every result; ``group`` a fairness
        group (``""`` the default one; a page filtered so may hold fewer than ``limit`` jobs while ``next`` is
        set); ``cursor`` the previous page's ``next`` of this order."""
        return self._page(_query(f"/v1/jobs/{_seg(type_)}", {"order": "recent", "result": result, "group": group,
                                                             "limit": limit, "cursor": cursor}))

    def _page(self, path: str) -> JobPage:
        body = self._t.send("GET", path).or_raise().body
        return JobPage([Job.from_json(n) for n in body["jobs"]], body.get("next"))

    def all_jobs(self, type_: Optional[str] = None, *, state: Optional[str] = None, result: Optional[str] = None,
                 group: Optional[str] = None, page_size: int = DEFAULT_PAGE) -> Iterator[Job]:
        """Every job the filter matches (as :meth:`jobs`), fetched ``page_size`` (1–1000) at a time as the iterator
        is read: a listing of a busy queue sees each job at most once, and may miss those added behind the cursor
        meanwhile."""
        cursor: Optional[str] = None
        while True:
            page = self.jobs(type_, state=state, result=result, group=group, limit=page_size, cursor=cursor)
            yield from page.jobs
            if page.next is None:
                return
            cursor = page.next

    def types(self) -> List[TypeInfo]:
        """Every type the service knows (used or configured), with settings and counts, in name order."""
        body = self._t.send("GET", "/v1/types").or_raise().body
        return [TypeInfo.from_json(n) for n in body["types"]]

    def pause(self, type_: str) -> TypeInfo:
        """Pauses a type: it hands out no job until resumed (blocked accepts keep waiting); everything else goes
        on. A type not used yet is created, paused: mind the spelling."""
        return TypeInfo.from_json(self._t.send("POST", f"/v1/types/{_seg(type_)}/pause", {}).or_raise().body)

    def resume(self, type_: str) -> TypeInfo:
        """Resumes a paused type: waiting accepts get its due jobs at once."""
        return TypeInfo.from_json(self._t.send("POST", f"/v1/types/{_seg(type_)}/resume", {}).or_raise().body)

    def delete_type(self, type_: str) -> bool:
        """Deletes a type no job uses (``DELETE /v1/types/{type}``): its settings, pause and counts go, and it
        leaves :meth:`types`; its next job registers it again with the defaults. False if the service knows no
        such type. Raises ProblemError 409 (``type-in-use``) while any job of the type exists, finished ones kept
        by retention included: remove them first (:meth:`bulk`)."""
        # Repeated after a lost answer, a deletion that took effect answers 404: False, as for a job's removal.
        answer = self._t.send("DELETE", f"/v1/types/{_seg(type_)}")
        if answer.status == 404 and answer.problem().not_found:
            return False
        answer.or_raise()
        return True

    def groups(self, type_: str, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> GroupPage:
        """One page of a type's fairness groups with pending or running jobs, in name order."""
        path = _query(f"/v1/types/{_seg(type_)}/groups", {"limit": limit, "cursor": cursor})
        body = self._t.send("GET", path).or_raise().body
        return GroupPage([FairnessGroup(g["group"], int(g["pending"]), int(g["due"]), int(g["running"]))
                          for g in body["groups"]], body.get("next"))

    def bulk(self, action: str, type_: str, *, state: Optional[str] = None, result: Optional[str] = None,
             group: Optional[str] = None, limit: Optional[int] = None) -> BulkResult:
        """Cancels, retries or removes (``action``) every job the filter matches (``POST /v1/bulk``), each as the
        single call does it, up to ``limit`` (1–10000; None: the service's default, 1000), 100 per transaction:
        not atomic as a whole. A repeat lists the matching jobs again and may act on up to ``limit`` more (the next
        pending ones, for a cancel), so it is retried only when the connection could not be made; after a
        failure, look at what it did before running it again. ``type_`` is required (a name or a glob)."""
        if action not in BULK_ACTIONS:
            raise ValueError(f"action is one of {', '.join(BULK_ACTIONS)}, not {action!r}")
        if not type_:
            raise ValueError("a bulk action names its type (or a glob)")
        match = {name: value for name, value in (("type", type_), ("state", state), ("result", result),
                                                  ("group", group)) if value is not None}
        body: Dict[str, Any] = {"action": action, "filter": match}
        if limit is not None:
            body["limit"] = limit
        # It takes longer the more jobs it acts on: the call's timeout grows with its limit.
        extra = BULK_SECONDS_PER_JOB * (1000 if limit is None else limit)
        answer = self._t.send("POST", "/v1/bulk", body, idempotent=False, long_poll=extra).or_raise().body
        return BulkResult(int(answer["matched"]), int(answer["changed"]))

    def me(self) -> Identity:
        """Who the service takes the caller for (``GET /v1/me``): a script's check of its token before it acts.
        Any valid token may call it."""
        body = self._t.send("GET", "/v1/me").or_raise().body
        types = body.get("types")
        return Identity(body["name"], list(body["roles"]), None if types is None else list(types))
