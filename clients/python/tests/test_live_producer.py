"""The producer calls, and the raw processor calls the worker is built on, against the real service."""
import threading
import time
import unittest
from datetime import datetime, timezone

from jobfoundry import Client, Concurrency, Finish, HaltError, Heartbeat, JobRef, NewJob, ProblemError, RateLimit

from .live import TOKEN, URL, new_type, requires_service


@requires_service
class ProducerTest(unittest.TestCase):
    def setUp(self):
        self.client = Client(URL, token=TOKEN)
        self.addCleanup(self.client.close)

    def test_create_put_get_and_remove(self):
        c, t = self.client, new_type("py-producer")
        created = c.create(t, data={"to": "a@example.org"}, group="tenant-7", priority="high", max_attempts=3)
        self.assertEqual(("pending", "tenant-7", "high", 3),
                         (created.state, created.group, created.priority, created.max_attempts))
        self.assertEqual({"to": "a@example.org"}, created.data)
        self.assertEqual(created.id, c.get(t, created.id).id)

        first = c.put(t, "welcome 42-é", data={"n": 1})
        self.assertTrue(first.created)
        self.assertFalse(c.put(t, "welcome 42-é", data={"n": 2}).created)
        self.assertEqual({"n": 2}, c.get(t, "welcome 42-é").data)
        self.assertTrue(c.remove(t, "welcome 42-é"))
        self.assertIsNone(c.get(t, "welcome 42-é"))
        self.assertFalse(c.remove(t, "welcome 42-é"))

    def test_a_scheduled_job_keeps_its_time(self):
        c, t = self.client, new_type("py-producer")
        later = datetime(2030, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
        self.assertEqual(later, c.create(t, scheduled_at=later).scheduled_at)
        self.assertEqual([], c.accept([t], 1, 0), "not due yet")

    def test_wait_for_answers_when_the_state_is_reached_or_the_timeout_ends(self):
        c, t = self.client, new_type("py-producer")
        job = c.create(t)
        self.assertEqual("pending", c.wait_for(t, job.id, "running", 0.3).state)

        finished = []
        waiter = threading.Thread(target=lambda: finished.append(c.wait_for(t, job.id, "finished", 60)))
        waiter.start()
        leased = c.accept([t], 1, 5, worker="by-hand")[0]
        self.assertEqual("by-hand", c.get(t, job.id).worker)
        started = time.monotonic()
        c.finish(Finish.succeeded(leased, {"sent": True}))
        waiter.join(30)
        self.assertLess(time.monotonic() - started, 30, "answered as soon as the job finished, not after 60 s")
        self.assertEqual(("finished", "succeeded", {"sent": True}),
                         (finished[0].state, finished[0].result, finished[0].data))

    def test_wait_for_a_job_that_does_not_exist_is_404(self):
        with self.assertRaises(ProblemError) as caught:
            self.client.wait_for(new_type("py-producer"), "nope", "finished", 1)
        self.assertEqual(404, caught.exception.status)

    def test_cancel_and_halts_of_the_raw_processor_calls(self):
        c, t = self.client, new_type("py-producer")
        pending = c.create(t)
        cancelled = c.cancel(t, pending.id)
        self.assertEqual(("finished", "cancelled"), (cancelled.state, cancelled.result))

        running = c.create(t, data={"step": 0})
        leased = c.accept([t], 1, 5)[0]
        self.assertEqual(running.id, leased.id)
        c.heartbeat(Heartbeat.of(leased, {"step": 1}))
        self.assertEqual({"step": 1}, c.get(t, running.id).data, "progress is visible")
        c.cancel(t, running.id)
        with self.assertRaises(HaltError) as halt:
            c.heartbeat(Heartbeat.of(leased))
        self.assertEqual("cancelled", halt.exception.reason)
        self.assertEqual("cancelled", c.get(t, running.id).result)

    def test_refusals_are_problems_naming_the_field(self):
        with self.assertRaises(ProblemError) as caught:
            self.client.create("no spaces")
        self.assertEqual((400, "type"), (caught.exception.status, caught.exception.member("field")))
        with self.assertRaises(ProblemError) as caught:
            self.client.create(new_type("py-producer"), max_attempts=0)
        self.assertEqual("maxAttempts", caught.exception.member("field"))

    def test_a_repeat_preview_gives_the_canonical_expression_and_the_next_runs_or_names_the_bad_part(self):
        c = self.client
        at = datetime(2026, 3, 1, 10, 15, tzinfo=timezone.utc)
        hourly = c.preview_repeat("scheduled,+1 hour", 3, at=at)
        self.assertEqual("SCHEDULED, +1 HOUR", hourly.normalized)
        self.assertEqual([datetime(2026, 3, 1, h, 15, tzinfo=timezone.utc) for h in (11, 12, 13)], hourly.next)
        # 2026-03-01 is a Sunday: the first weekday at nine is Monday's.
        self.assertEqual([datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)],
                         c.preview_repeat("CRON 0 9 * * MON-FRI", at=at).next)
        before = time.time()
        (next_run,) = c.preview_repeat("SCHEDULED, +1 DAY").next
        self.assertAlmostEqual(before + 86400, next_run.timestamp(), delta=60, msg="counted from now")

        with self.assertRaises(ProblemError) as bad:
            c.preview_repeat("SCHEDULED, +1 FORTNIGHT")
        self.assertEqual((400, "repeat"), (bad.exception.status, bad.exception.member("field")))
        self.assertIn("FORTNIGHT", bad.exception.detail)

    def test_batch_create_adds_all_in_order_or_nothing(self):
        c, t = self.client, new_type("py-batch")
        saved = c.create_batch([NewJob(t, None, {"data": {"n": 0}}), NewJob(t, "fixed", {"data": {"n": 1}}),
                                NewJob(t, None, {"data": {"n": 2}, "priority": "high"})])
        self.assertEqual([True] * 3, [s.created for s in saved])
        self.assertEqual([0, 1, 2], [s.job.data["n"] for s in saved], "answers come in request order")
        self.assertEqual("fixed", saved[1].job.id)
        self.assertFalse(c.create_batch([NewJob(t, "fixed")])[0].created)

        with self.assertRaises(ProblemError) as caught:
            c.create_batch([NewJob(t, "would-be-created"), NewJob(t, "bad", {"maxAttempts": 0})])
        self.assertEqual(400, caught.exception.status)
        self.assertEqual(1, caught.exception.member("errors")[0]["index"])
        self.assertIsNone(c.get(t, "would-be-created"), "nothing was created")

    def test_batch_finish_answers_each_item_on_its_own(self):
        c, t = self.client, new_type("py-batch")
        for i in range(3):
            c.create(t, data={"n": i})
        jobs = c.accept([t], 3, 5)
        self.assertEqual(3, len(jobs))
        results = c.finish_batch([Finish.succeeded(jobs[0], {"done": True}), Finish.failed(jobs[1], "smtp 451"),
                                  Finish(t, jobs[2].id, "not-the-lease", "succeeded")])
        self.assertEqual([200, 200, 409], [r.status for r in results])
        self.assertEqual("succeeded", results[0].job.result)
        self.assertEqual("smtp 451", results[1].job.last_error)
        self.assertEqual("lease-lost", results[2].reason)
        self.assertEqual("running", c.get(t, jobs[2].id).state, "the halted item changed nothing")

        beats = c.heartbeat_batch([Heartbeat.of(jobs[2], {"p": 1}), Heartbeat.of(jobs[0])])
        self.assertEqual([200, 409], [b.status for b in beats], "a finished job's lease is spent")

    def test_a_job_with_after_waits_and_becomes_due_when_its_dependency_succeeds(self):
        c, t = self.client, new_type("py-deps")
        extract = c.create(t, data={"step": "extract"})
        load = c.create(t, data={"step": "load"}, after=[extract])
        self.assertEqual(("pending", [extract.ref], [extract.ref]), (load.state, load.after, load.waiting_for))

        first = c.accept([t], 2, 0)
        self.assertEqual([extract.id], [j.id for j in first], "only the dependency is due")
        self.assertEqual([extract.ref], c.get(t, load.id).waiting_for)
        c.finish(Finish.succeeded(first[0]))

        after = c.accept([t], 1, 20)
        self.assertEqual([load.id], [j.id for j in after], "due once its dependency succeeded")
        self.assertEqual(([], [extract.ref]), (after[0].job.waiting_for, after[0].job.after))

    def test_a_batch_item_may_wait_for_an_earlier_one_and_a_failure_cancels_or_runs_it(self):
        c, t = self.client, new_type("py-deps")
        saved = c.create_batch([NewJob(t, "extract", {"maxAttempts": 1}),
                                NewJob(t, "load", {"after": [(t, "extract")]}),
                                NewJob(t, "report", {"after": [JobRef(t, "extract")], "afterFailure": "run"})])
        self.assertEqual([JobRef(t, "extract")], saved[1].job.waiting_for)
        leased = c.accept([t], 3, 0)
        self.assertEqual(["extract"], [j.id for j in leased])
        c.finish(Finish.failed(leased[0], "no orders"))

        load = c.wait_for(t, "load", "finished", 20)
        self.assertEqual("cancelled", load.result, "afterFailure cancel is the default")
        self.assertIn("extract", load.last_error)
        self.assertEqual(["report"], [j.id for j in c.accept([t], 1, 20)], "afterFailure run runs it anyway")

    def test_concurrency_and_rate_limits_round_trip_and_hold_accepts(self):
        c, t = self.client, new_type("py-limits")
        set_ = c.configure_type(t, {"concurrency": Concurrency(max=1),
                                    "rateLimit": RateLimit(100, 60.5, per_group=True)})
        self.assertEqual((Concurrency(1, None), RateLimit(100, 60.5, True)), (set_.concurrency, set_.rate_limit))
        read = c.type(t)
        self.assertEqual((Concurrency(1, None), RateLimit(100, 60.5, True)), (read.concurrency, read.rate_limit))

        c.create(t)
        c.create(t)
        self.assertEqual(1, len(c.accept([t], 2, 0)), "one at a time")
        lifted = c.configure_type(t, {"concurrency": Concurrency(), "rateLimit": None})
        self.assertEqual((Concurrency(), None), (lifted.concurrency, lifted.rate_limit))
        self.assertEqual(1, len(c.accept([t], 2, 0)), "the other one, now")


if __name__ == "__main__":
    unittest.main()
