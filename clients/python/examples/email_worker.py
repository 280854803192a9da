"""The quickstart's Python worker: handles jobs of type "email" until Ctrl-C, which stops it gracefully.
Run from the repository root (see docs/quickstart.md):
PYTHONPATH=clients/python python3 clients/python/examples/email_worker.py"""
import signal
import sys
import threading

from jobfoundry import Client, Worker


def send(ctx):
    to = ctx.data["to"]
    print(f"python worker: sending to {to} (job {ctx.job.id})", flush=True)
    ctx.progress({"to": to, "step": "sending"})  # shown by GET with the next heartbeat
    ctx.sleep(1)  # the work; a halt (cancel, remove) interrupts it
    return {"to": to, "sentBy": "python"}  # the job's data once it is finished


def main() -> None:
    client = Client(sys.argv[1] if len(sys.argv) > 1 else "http://localhost:8080")
    worker = Worker(client, send, ["email"], concurrency=4).start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(f"python worker {worker.name} is waiting for email jobs; Ctrl-C stops it", flush=True)
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    # Stop accepting, let running jobs finish for up to 20 s, then stop.
    try:
        worker.shutdown(20)
    except KeyboardInterrupt:  # a second Ctrl-C: do not wait; unfinished jobs come back after their timeout
        print("stopped without waiting for running jobs", flush=True)


if __name__ == "__main__":
    main()
