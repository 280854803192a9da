"""The comparison workload of ``bench/compare.sh`` driven through this client library, as a user of it would
write it::

    python3 compare_driver.py producer|worker --url U --queue Q --jobs J --timeout S
        [--producers N] [--concurrency W] [--batch B] [--fetch F]

with ``jobfoundry`` importable (``pip install ./clients/python``, or ``PYTHONPATH=clients/python`` as
``bench/compare.sh`` runs it). It speaks the protocol of the Node drivers in ``bench/node`` (read by
``io.jobfoundry.bench.compare.DriverWorkload``): one JSON object per stdout line, ``ready`` from the worker once it
accepts, then one ``result`` from each process.

- Producer: N threads share one :class:`jobfoundry.Client` and claim the next B jobs each until J are claimed:
  ``create`` per job when B is 1, ``create_batch`` of B otherwise. Each thread makes one call before the clock
  starts, so its connection is open, as the raw rows' are.
- Worker: one :class:`jobfoundry.Worker` of concurrency W x F (as many jobs in flight as W raw workers holding up
  to F each), its handler a no-op that records when it received the job. The library decides how many jobs an
  accept asks for and how finishes are batched; a job counts as completed when the worker's ``stats().succeeded``
  says its finish was answered.

Times are ``time.monotonic_ns()``, ``CLOCK_MONOTONIC`` on Linux, the clock the other drivers read. CPU
(``cpuMicros``) is the process' from the moment the producers are released (the worker: from ``ready``) to the
result: the interpreter's start and the connections' set-up are left out, as they are from the raw rows.
"""

import json
import resource
import sys
import threading
import time
from typing import Dict, List, NoReturn

from jobfoundry import Client, NewJob, Worker

# How often the worker looks at its stats for the last completion: the run's time may be long by this much. Not
# less: every wake-up costs the worker process CPU the libraries' rows count.
POLL_SECONDS = 0.01
USAGE = ("usage: compare_driver.py producer|worker --url U --queue Q --jobs J --timeout S"
         " [--producers N] [--concurrency W] [--batch B] [--fetch F]")


def usage(problem: str) -> NoReturn:
    print(f"compare_driver.py: {problem}\n{USAGE}", file=sys.stderr)
    sys.exit(2)


def parse(argv: List[str]) -> Dict[str, str]:
    if not argv:
        usage("producer | worker first")
    options = {"role": argv[0]}
    rest = argv[1:]
    for i in range(0, len(rest), 2):
        if not rest[i].startswith("--") or i + 1 >= len(rest):
            usage(f"expected --name value, got {rest[i]}")
        options[rest[i][2:]] = rest[i + 1]
    return options


def required(options: Dict[str, str], name: str) -> str:
    if name not in options:
        usage(f"--{name} is required")
    return options[name]


def cpu_micros() -> int:
    usage_ = resource.getrusage(resource.RUSAGE_SELF)
    return round((usage_.ru_utime + usage_.ru_stime) * 1e6)


def emit(event: dict) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def produce(client: Client, queue: str, jobs: int, threads: int, batch: int, deadline: int) -> None:
    lock = threading.Lock()
    state = {"next": 0, "created": 0}
    connected = threading.Barrier(threads + 1)
    gate = threading.Event()
    failures: List[BaseException] = []

    def claim() -> int:
        with lock:
            first = state["next"]
            state["next"] += batch
            return first

    def loop() -> None:
        try:
            try:
                client.type(queue)  # opens this thread's connection before the clock starts
            finally:
                connected.wait()
            gate.wait()
            first = claim()
            while first < jobs and time.monotonic_ns() < deadline:
                count = min(batch, jobs - first)
                members = {"data": {"t": time.monotonic_ns()}}
                if batch == 1:
                    client.create(queue, **members)
                else:
                    client.create_batch([NewJob(queue, None, members) for _ in range(count)])
                with lock:
                    state["created"] += count
                first = claim()
        except BaseException as e:  # the run is void, not short: reported below
            failures.append(e)
            raise

    loops = [threading.Thread(target=loop, name=f"producer-{i}") for i in range(threads)]
    for t in loops:
        t.start()
    connected.wait(timeout=30)
    cpu_before = cpu_micros()
    start_ns = time.monotonic_ns()
    gate.set()
    for t in loops:
        t.join()
    if failures:
        raise SystemExit(f"a producer failed: {failures[0]!r}")
    emit({"event": "result", "role": "producer", "created": state["created"], "startNs": str(start_ns),
          "cpuMicros": cpu_micros() - cpu_before})


def work(client: Client, queue: str, jobs: int, concurrency: int, deadline: int) -> None:
    latencies: List[int] = []
    extra = [0]  # receipts beyond `jobs`: redeliveries, which a clean run has none of
    lock = threading.Lock()

    def handler(ctx) -> None:
        micros = (time.monotonic_ns() - ctx.data["t"]) // 1000
        with lock:
            if len(latencies) < jobs:
                latencies.append(micros)
            else:
                extra[0] += 1
        return None  # succeeded, data unchanged

    worker = Worker(client, handler, [queue], concurrency=concurrency).start()
    cpu_before = cpu_micros()
    emit({"event": "ready", "role": "worker"})
    last_complete = None
    stats = worker.stats()
    while time.monotonic_ns() < deadline:
        stats = worker.stats()
        if stats.succeeded >= jobs:
            last_complete = time.monotonic_ns()
            break
        time.sleep(POLL_SECONDS)
    cpu = cpu_micros() - cpu_before
    with lock:
        received = list(latencies)
    emit({"event": "result", "role": "worker", "received": len(received), "completed": stats.succeeded,
          "lastCompleteNs": str(last_complete or time.monotonic_ns()), "cpuMicros": cpu,
          "fetches": stats.accept_calls, "latencyMicros": received})
    # What the library did to get there: how full its accepts and finish batches were, on stderr for the log.
    print(f"python client worker: {stats}; {extra[0]} receipts beyond the jobs created", file=sys.stderr)
    worker.shutdown(10)


def main() -> None:
    options = parse(sys.argv[1:])
    role = options["role"]
    queue = required(options, "queue")
    jobs = int(required(options, "jobs"))
    deadline = time.monotonic_ns() + int(float(required(options, "timeout")) * 1e9)
    batch = int(options.get("batch", "1"))
    fetch = int(options.get("fetch", "1"))
    client = Client(required(options, "url"))
    if role == "producer":
        produce(client, queue, jobs, int(required(options, "producers")), batch, deadline)
    elif role == "worker":
        work(client, queue, jobs, int(required(options, "concurrency")) * fetch, deadline)
    else:
        usage(f"role: producer | worker, not {role}")


if __name__ == "__main__":
    main()
