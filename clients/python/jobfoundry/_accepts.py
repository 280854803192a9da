"""How a worker's accept thread goes on after an accept failed."""
from __future__ import annotations

import logging
from typing import Optional

from .errors import JobfoundryError, ProblemError
from .models import RetryPolicy

#: Seconds between accepts the service refuses.
REFUSED_AGAIN = 30.0

# The worker's logger: the lines belong to it, and are configured with it.
log = logging.getLogger("jobfoundry.worker")


class AcceptFailures:
    """A failed call (the service unreachable, a 503 after the client's retries, an answer it cannot read) is
    tried again with the client's backoff and logged each time. A refused one, 401 or 403 (the token, its roles,
    its types) or 400 (the types asked for), will be answered the same way however often it is asked, until
    someone changes the configuration, here or on the service, which may happen while the worker runs. So it is
    logged once as an error with what the service said, asked again every ``refused_again`` seconds without a
    word while the answer stays the same, and the first accept answered after it is logged too."""

    def __init__(self, refused_again: float = REFUSED_AGAIN) -> None:
        self._refused_again = refused_again
        self._failures = 0
        self._refusal: Optional[str] = None

    def failed(self, e: BaseException) -> float:
        """Seconds to wait before the next accept."""
        if isinstance(e, ProblemError) and e.status in (400, 401, 403):
            self._failures = 0
            if str(e) != self._refusal:
                self._refusal = str(e)
                log.error("accept refused (%s); the worker's token or its types must change, here or on the"
                          " service: asking again every %g s", self._refusal, self._refused_again)
            return self._refused_again
        self._failures += 1
        log.warning("accept failed (%s); trying again", e if isinstance(e, JobfoundryError) else repr(e))
        return RetryPolicy().delay(self._failures)

    def answered(self) -> None:
        """An accept was answered."""
        self._failures = 0
        if self._refusal is not None:
            log.info("accepts are answered again, after: %s", self._refusal)
            self._refusal = None
