"""The running service the live tests use: JOBFOUNDRY_URL (clients/test.sh starts the packaged jar)."""
import os
import unittest
import urllib.request
import uuid

from jobfoundry import Client

URL = os.environ.get("JOBFOUNDRY_URL")
# The token clients/test.sh configures the service with, if any.
TOKEN = os.environ.get("JOBFOUNDRY_TOKEN") or None

requires_service = unittest.skipUnless(URL, "JOBFOUNDRY_URL is not set: no service to test against")


def new_type(prefix: str) -> str:
    """A type of its own for each test, so that tests sharing one service never see each other's jobs."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def quick_type(client: Client, prefix: str, seconds: int = 1) -> str:
    """A type whose jobs come back ``seconds`` after their processor goes quiet, and retry at once."""
    type_ = new_type(prefix)
    client.configure_type(type_, {"activityTimeout": seconds, "backoff": {"base": 0, "max": 0}})
    return type_


def waiting_accepts() -> int:
    """Accepts blocked on the service right now: its ``jobfoundry_waits_accepts`` gauge from ``/q/metrics``.

    A worker's accept is only seen to have left once the service has noticed its connection close, which comes a
    moment after the worker returned.
    """
    request = urllib.request.Request(URL + "/q/metrics")
    if TOKEN:
        request.add_header("Authorization", "Bearer " + TOKEN)
    with urllib.request.urlopen(request, timeout=10) as response:
        for line in response.read().decode("utf-8").splitlines():
            if line.startswith("jobfoundry_waits_accepts "):
                return int(float(line.split(" ", 1)[1]))
    raise AssertionError("no jobfoundry_waits_accepts in /q/metrics")
