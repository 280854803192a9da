"""A worker process that takes one job and hangs on it, for test_live_worker to kill: a worker that crashes
mid-job. Arguments: the service's URL and the type."""
import os
import sys
import threading

from jobfoundry import Client, Worker


def main() -> None:
    client = Client(sys.argv[1], token=os.environ.get("JOBFOUNDRY_TOKEN") or None)
    Worker(client, lambda ctx: threading.Event().wait(), [sys.argv[2]], concurrency=1, name="crasher").start()
    threading.Event().wait()


if __name__ == "__main__":
    main()
