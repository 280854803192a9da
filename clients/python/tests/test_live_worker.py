"""The worker runtime against the real service; each test uses a type of its own."""
import os
import signal
import subprocess
import sys
import threading
import time
import unittest
from datetime import datetime

from jobfoundry import Client, Worker

from .live import TOKEN, URL, quick_type, requires_service, waiting_accepts
from .stub import await_true

LONG = 30.0
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@requires_service
class WorkerTest(unittest.TestCase):
    def setUp(self):
        self.client = Client(URL, token=TOKEN)
        self.addCleanup(self.client.close)

    def start(self, handler, type_, **options) -> Worker:
        worker = Worker(self.client, handler, [type_], **options).start()
        self.addCleanup(worker.shutdown, 5)
        return worker

    def test_a_job_is_handled_with_its_data_progress_and_result(self):
        c, t = self.client, quick_type(self.client, "py-work")
        job = c.create(t, data={"n": 2})
        progress_seen = threading.Event()

        def handler(ctx):
            ctx.progress({"n": ctx.data["n"], "step": 1})
            if not progress_seen.wait(20):
                raise AssertionError("the test did not see the progress")
            return {"n": ctx.data["n"] * 2}

        self.start(handler, t)
        await_true(lambda: "step" in (c.get(t, job.id).data or {}), LONG, "progress shown by GET")
        progress_seen.set()
        done = c.wait_for(t, job.id, "finished", LONG)
        self.assertEqual(("succeeded", {"n": 4}, 0), (done.result, done.data, done.attempt))

    def test_an_exception_fails_the_job_with_its_message(self):
        c, t = self.client, quick_type(self.client, "py-fail")
        job = c.create(t, max_attempts=1)

        def handler(ctx):
            raise RuntimeError("smtp 451: try later")

        worker = self.start(handler, t)
        done = c.wait_for(t, job.id, "finished", LONG)
        self.assertEqual(("failed", "smtp 451: try later"), (done.result, done.last_error))
        await_true(lambda: worker.stats().failed == 1, LONG, "counted as failed")

    def test_a_result_that_is_not_json_fails_its_job_and_the_worker_goes_on(self):
        c, t = self.client, quick_type(self.client, "py-unjson")
        bad = c.create(t, data={"bad": True}, max_attempts=1)

        def handler(ctx):
            return {"when": datetime.now()} if ctx.data.get("bad") else {"ok": True}

        worker = self.start(handler, t)
        done = c.wait_for(t, bad.id, "finished", LONG)
        self.assertEqual("failed", done.result)
        self.assertIn("datetime", done.last_error)
        self.assertIn("JSON", done.last_error)
        good = c.create(t, data={})  # after the bad one: the finish thread is still there to send it
        self.assertEqual("succeeded", c.wait_for(t, good.id, "finished", LONG).result)
        self.assertTrue(worker.shutdown(5))
        self.assertEqual((1, 1, 0), (worker.stats().failed, worker.stats().succeeded, worker.stats().lost_finishes))

    def test_progress_that_is_not_json_is_refused_in_the_handler_and_heartbeats_go_on(self):
        c, t = self.client, quick_type(self.client, "py-unjson", 2)
        job = c.create(t, data={})
        refused = []

        def handler(ctx):
            for bad in ({"tags": {"a", "b"}}, ["not", "an", "object"]):
                try:
                    ctx.progress(bad)
                except TypeError as e:
                    refused.append(str(e))
            ctx.progress({"step": 1})
            ctx.sleep(5)  # two and a half activity timeouts: only heartbeats keep the job
            return {"done": True}

        self.start(handler, t)
        done = c.wait_for(t, job.id, "finished", LONG)
        self.assertEqual(("succeeded", 0, {"done": True}), (done.result, done.attempt, done.data))
        self.assertEqual(2, len(refused), refused)
        self.assertIn("set", refused[0])
        self.assertIn("list", refused[1])

    def test_a_finish_the_service_refuses_fails_its_job_saying_why_and_costs_the_others_nothing(self):
        c, t = self.client, quick_type(self.client, "py-refused")
        ids = [c.create(t, data={"n": n}, max_attempts=1).id for n in range(6)]
        together = threading.Barrier(6)

        def handler(ctx):
            together.wait(20)  # finishes ready together: the refused ones share batches with good ones
            if ctx.data["n"] == 0:
                return {"blob": "x" * 70_000}  # over the service's 64 KiB
            if ctx.data["n"] == 1:
                raise OSError("cannot read report-\udcff.csv")  # a file name read with surrogateescape
            return {"ok": True}

        worker = self.start(handler, t, concurrency=6)
        done = [c.wait_for(t, i, "finished", LONG) for i in ids]
        self.assertEqual(["failed", "failed"] + ["succeeded"] * 4, [d.result for d in done],
                         [d.last_error for d in done])
        self.assertIn("65536", done[0].last_error)
        self.assertIn("result", done[0].last_error)
        self.assertEqual("cannot read report-\ufffd.csv", done[1].last_error)
        self.assertEqual(0, worker.stats().lost_finishes)

    def test_heartbeats_keep_a_job_longer_than_its_activity_timeout(self):
        # 2 s rather than 1: a loaded machine may hold a beat up for a moment, which is not what this is about.
        c, t = self.client, quick_type(self.client, "py-long", 2)
        job = c.create(t)
        worker = self.start(lambda ctx: time.sleep(5), t, concurrency=1)  # two and a half timeouts
        done = c.wait_for(t, job.id, "finished", LONG)
        self.assertEqual(("succeeded", 0), (done.result, done.attempt), "never timed out")
        self.assertGreaterEqual(worker.stats().heartbeat_calls, 6, "beats every third of the timeout")

    def test_a_halt_interrupts_the_handler_and_the_job_is_never_finished(self):
        c, t = self.client, quick_type(self.client, "py-halt")
        job = c.create(t)
        started, interrupted = threading.Event(), threading.Event()

        def handler(ctx):
            started.set()
            try:
                ctx.sleep(60)
            except BaseException:
                interrupted.set()
            return {"finished": "by a handler that ignored the halt"}  # must not be reported

        worker = self.start(handler, t)
        self.assertTrue(started.wait(LONG))
        c.cancel(t, job.id)
        self.assertTrue(interrupted.wait(10), "the handler was interrupted")
        await_true(lambda: worker.stats().running == 0, LONG, "the job let go")
        done = c.get(t, job.id)
        self.assertEqual("cancelled", done.result)
        self.assertNotIn("finished", done.data or {})
        stats = worker.stats()
        self.assertEqual((1, 0, 0), (stats.halted, stats.succeeded, stats.finish_calls + stats.finish_batches))

    def test_a_removed_jobs_handler_is_stopped_even_in_a_busy_loop(self):
        c, t = self.client, quick_type(self.client, "py-halt")
        job = c.create(t)
        started, reason = threading.Event(), []

        def handler(ctx):
            started.set()
            try:
                while True:  # never looks at ctx: only a real interruption ends it
                    pass
            finally:
                reason.append(ctx.halt_reason)

        worker = self.start(handler, t)
        self.assertTrue(started.wait(LONG))
        self.assertTrue(c.remove(t, job.id))
        await_true(lambda: reason, LONG, "the handler stopped")
        self.assertIn(reason[0], ("removed", "lease-lost"))
        self.assertEqual(0, worker.stats().failed)

    def test_a_crashed_workers_job_comes_back_to_another(self):
        c, t = self.client, quick_type(self.client, "py-crash")
        job = c.create(t, data={"n": 1})
        crasher = subprocess.Popen([sys.executable, "-m", "tests.crashing_worker", URL, t], cwd=HERE)
        try:
            taken = c.wait_for(t, job.id, "running", 60)
            self.assertEqual(("running", "crasher"), (taken.state, taken.worker))
        finally:
            crasher.send_signal(signal.SIGKILL)  # no shutdown, no last heartbeat
            crasher.wait(10)
        seen = []
        self.start(lambda ctx: seen.append(ctx.job), t, name="rescuer")
        done = c.wait_for(t, job.id, "finished", LONG)
        self.assertEqual("succeeded", done.result)
        self.assertEqual(1, seen[0].attempt, "the crashed run counted as an attempt")
        self.assertIsNotNone(seen[0].last_error, "and says why")
        self.assertEqual("rescuer", seen[0].worker)

    def test_shutdown_lets_running_jobs_finish_and_leaves_the_rest_pending(self):
        c, t = self.client, quick_type(self.client, "py-drain")
        ids = [c.create(t).id for _ in range(10)]
        first = Worker(c, lambda ctx: time.sleep(0.5), [t], concurrency=3).start()
        await_true(lambda: first.stats().accepted >= 3, LONG, "three running")
        self.assertTrue(first.shutdown(20), "every running job finished in time")
        stats = first.stats()
        self.assertEqual(stats.accepted, stats.succeeded)
        states = [c.get(t, i).state for i in ids]
        self.assertNotIn("running", states, "nothing is left running")
        self.assertEqual(stats.succeeded, states.count("finished"))
        self.assertLess(states.count("finished"), 10, "the shutdown stopped taking jobs")

        self.start(lambda ctx: None, t, concurrency=3)
        await_true(lambda: c.type(t).counts["succeeded"] == 10, LONG, "the rest done by another worker")

    def test_shutdown_cuts_a_waiting_accept_without_taking_a_job(self):
        c, t = self.client, quick_type(self.client, "py-idle")
        handled = []
        others_waiting = waiting_accepts()
        worker = Worker(c, handled.append, [t], accept_wait=60).start()
        await_true(lambda: waiting_accepts() > others_waiting, 30, "the accept waits on the service")
        started = time.monotonic()
        self.assertTrue(worker.shutdown(10))
        self.assertLess(time.monotonic() - started, 10, "did not wait out the accept")
        # The job is made once the service has seen the cut accept's connection close: made before, it could be
        # handed to that accept, whose answer no one reads.
        await_true(lambda: waiting_accepts() <= others_waiting, 30, "the cut accept left the service")
        job = c.create(t)
        time.sleep(0.5)
        self.assertEqual("pending", c.get(t, job.id).state, "no job went to the worker that left")
        self.assertEqual([], handled)

    def test_a_job_still_running_at_the_deadline_comes_back_later(self):
        c, t = self.client, quick_type(self.client, "py-deadline")
        job = c.create(t)
        started, interrupted = threading.Event(), threading.Event()

        def slow(ctx):
            started.set()
            try:
                ctx.sleep(60)
            except BaseException:
                interrupted.set()
                raise

        worker = Worker(c, slow, [t]).start()
        self.assertTrue(started.wait(LONG))
        self.assertFalse(worker.shutdown(0.2), "the deadline passed")
        self.assertTrue(interrupted.is_set())
        self.assertEqual((1, 0), (worker.stats().abandoned, worker.stats().failed), "abandoned, not failed")
        self.start(lambda ctx: None, t)
        self.assertEqual("succeeded", c.wait_for(t, job.id, "finished", LONG).result)

    def test_under_load_accepts_take_every_free_slot_and_finishes_and_heartbeats_go_in_batches(self):
        # Heartbeats every second, each job 1.5 s: a beat half a second before each finish, and two seconds of
        # slack before a lease is lost, for a loaded machine.
        c, t = self.client, quick_type(self.client, "py-load", 3)
        for i in range(24):
            c.create(t, data={"n": i})
        together = threading.Barrier(8)

        def handler(ctx):
            together.wait(20)  # eight at once, so that their heartbeats and finishes coincide
            time.sleep(1.5)

        worker = self.start(handler, t, concurrency=8)
        # the worker counts a job when its finish is answered, after the service has counted it
        await_true(lambda: worker.stats().succeeded == 24, LONG, "all done, every finish answered")
        self.assertEqual(24, c.type(t).counts["succeeded"])
        stats = worker.stats()
        self.assertEqual(8, stats.largest_accept, f"one accept filled every slot: {stats}")
        self.assertTrue(stats.finish_batches >= 1 and stats.largest_finish_batch > 1, f"batched finishes: {stats}")
        self.assertGreaterEqual(stats.heartbeat_batches, 1, f"batched heartbeats: {stats}")
        self.assertEqual(0, stats.halted, f"no lease was lost, and a beat crossing a finish is no halt: {stats}")


if __name__ == "__main__":
    unittest.main()
