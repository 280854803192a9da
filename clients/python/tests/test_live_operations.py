"""The calls beyond producing and processing, against the real service: following, changing and resubmitting a
job, and the operator's listings, pause and resume, fairness groups, bulk actions and who the caller is."""
import threading
import unittest

from jobfoundry import Client, Finish, Heartbeat, ProblemError

from .live import TOKEN, URL, new_type, requires_service


@requires_service
class OperationsTest(unittest.TestCase):
    def setUp(self):
        self.client = Client(URL, token=TOKEN)
        self.addCleanup(self.client.close)
        self.ops = self.client.operations

    def test_update_changes_the_members_given_and_resubmit_runs_a_finished_job_again(self):
        c, t = self.client, new_type("py-ops")
        job = c.create(t, data={"n": 1}, group="g")
        changed = c.update(t, job.id, priority="high", data={"n": 2})
        self.assertEqual(("high", {"n": 2}, "g"), (changed.priority, changed.data, changed.group))

        leased = c.accept([t], 1, 5)[0]
        with self.assertRaises(ProblemError) as refused:
            c.update(t, job.id, data={"n": 3})
        self.assertEqual(409, refused.exception.status, "the data of a running job is its processor's")
        c.finish(Finish.succeeded(leased))
        self.assertEqual("finished", c.get(t, job.id).state)

        again = c.resubmit(t, job.id)
        self.assertEqual(("pending", None), (again.state, again.result))
        self.assertEqual(job.id, c.accept([t], 1, 5)[0].id)
        with self.assertRaises(ProblemError) as missing:
            c.update(t, "no-such-job", priority="low")
        self.assertEqual(404, missing.exception.status)

    def test_events_follow_a_job_from_its_state_as_it_is_to_its_removal(self):
        c, t = self.client, new_type("py-ops")
        job = c.create(t, data={"step": 0})
        events = c.events(t, job.id)
        # A missing event fails the test instead of keeping it waiting: the stream is closed under it.
        watchdog = threading.Timer(60, events.close)
        watchdog.start()
        try:
            self.assertEqual("pending", next(events).job.state, "first the job as it is")
            leased = c.accept([t], 1, 5)[0]
            self.assertEqual("running", next(events).job.state)
            c.heartbeat(Heartbeat.of(leased, {"step": 1}))
            self.assertEqual({"step": 1}, next(events).job.data, "progress shows as it is sent")
            c.finish(Finish.succeeded(leased, {"step": 2}))
            self.assertEqual("succeeded", next(events).job.result)
            self.assertTrue(c.remove(t, job.id))
            removed = next(events)
            self.assertEqual((True, t, job.id), (removed.removed, removed.type, removed.id))
            self.assertEqual([], list(events), "the removal ends the stream")
        finally:
            watchdog.cancel()
            events.close()
        with self.assertRaises(ProblemError) as missing:
            c.events(t, job.id)
        self.assertEqual(404, missing.exception.status)

    def test_listings_page_in_id_order_and_filter(self):
        c, t = self.client, new_type("py-ops")
        for id_ in ("e", "b", "d", "a", "c"):
            c.put(t, id_, max_attempts=1)  # a failed run ends the job
        leased = c.accept([t], 1, 5)[0]
        c.finish(Finish.failed(leased, "broken"))

        first = self.ops.jobs(t, limit=2)
        self.assertEqual(2, len(first.jobs))
        self.assertIsNotNone(first.next)
        rest = self.ops.jobs(t, limit=1000, cursor=first.next)
        self.assertEqual(["a", "b", "c", "d", "e"], [j.id for j in first.jobs + rest.jobs])
        self.assertIsNone(rest.next)

        self.assertEqual(["a", "b", "c", "d", "e"], [j.id for j in self.ops.all_jobs(t[:-1] + "?")
                                                     if j.type == t])
        self.assertEqual([leased.id], [j.id for j in self.ops.all_jobs(t, state="finished")])
        self.assertEqual([leased.id], [j.id for j in self.ops.all_jobs(t, result="failed")])
        self.assertEqual([], list(self.ops.all_jobs(t, result="succeeded")))

        with self.assertRaises(ProblemError) as bad:
            self.ops.jobs(t, state="sleeping")
        self.assertEqual(400, bad.exception.status)

    def test_recently_finished_jobs_come_latest_first(self):
        c, t = self.client, new_type("py-ops")
        failed_in_order = []
        # One at a time, so each finishes after the one before (ids in the same order: a tie within a
        # millisecond lists the greater id first, which is then the later one too).
        for id_ in ("a", "b", "c"):
            c.put(t, id_, max_attempts=1, group="tenant-b" if id_ == "b" else "")
            leased = c.accept([t], 1, 5)[0]
            c.finish(Finish.failed(leased, "broken " + id_))
            failed_in_order.insert(0, leased.id)
        c.put(t, "pending")

        first = self.ops.recently_finished(t, result="failed", limit=2)
        self.assertIsNotNone(first.next)
        rest = self.ops.recently_finished(t, result="failed", limit=2, cursor=first.next)
        self.assertIsNone(rest.next)
        self.assertEqual(failed_in_order, [j.id for j in first.jobs + rest.jobs])
        self.assertEqual([], self.ops.recently_finished(t, result="succeeded").jobs)
        self.assertEqual(3, len(self.ops.recently_finished(t).jobs), "a pending job is not finished")
        self.assertEqual(["b"], [j.id for j in self.ops.recently_finished(t, group="tenant-b").jobs])
        with self.assertRaises(ProblemError) as bad:
            self.ops.recently_finished(t, cursor="bm90LWEtY3Vyc29y")
        self.assertEqual(400, bad.exception.status)

    def test_a_paused_type_hands_out_nothing_until_resumed(self):
        c, t = self.client, new_type("py-ops")
        self.assertTrue(self.ops.pause(t).paused)
        c.create(t)
        self.assertEqual([], c.accept([t], 1, 0))
        listed = {info.type: info for info in self.ops.types()}
        self.assertTrue(listed[t].paused)
        self.assertEqual(1, listed[t].counts["pending"])

        self.assertFalse(self.ops.resume(t).paused)
        self.assertEqual(1, len(c.accept([t], 1, 5)))

    def test_a_type_is_deleted_once_no_job_uses_it(self):
        c, t = self.client, new_type("py-ops")
        self.ops.pause(t)
        job = c.create(t)
        with self.assertRaises(ProblemError) as in_use:
            self.ops.delete_type(t)
        self.assertEqual(409, in_use.exception.status)
        self.assertTrue(in_use.exception.type.endswith("/type-in-use"), in_use.exception.type)

        self.assertTrue(c.remove(t, job.id))
        self.assertTrue(self.ops.delete_type(t))
        self.assertNotIn(t, [info.type for info in self.ops.types()])
        self.assertFalse(self.ops.delete_type(t), "a type the service no longer knows")

    def test_groups_are_counted_and_paged(self):
        c, t = self.client, new_type("py-ops")
        spaced = "tenant 1/é&x=y"  # every character a query must encode
        for group in (spaced, spaced, "tenant-2"):
            c.create(t, group=group)
        page = self.ops.groups(t)
        self.assertEqual([(spaced, 2, 2, 0), ("tenant-2", 1, 1, 0)],
                         [(g.group, g.pending, g.due, g.running) for g in page.groups])
        self.assertIsNone(page.next)
        first = self.ops.groups(t, limit=1)
        self.assertEqual([spaced], [g.group for g in first.groups])
        self.assertEqual(["tenant-2"], [g.group for g in self.ops.groups(t, limit=1, cursor=first.next).groups])
        self.assertEqual(2, len(list(self.ops.all_jobs(t, group=spaced))))

    def test_bulk_cancels_retries_and_removes_what_the_filter_matches(self):
        c, t = self.client, new_type("py-ops")
        for group in ("a", "a", "b"):
            c.create(t, group=group)

        cancelled = self.ops.bulk("cancel", t, group="a")
        self.assertEqual((2, 2), (cancelled.matched, cancelled.changed))
        self.assertEqual(2, len(list(self.ops.all_jobs(t, result="cancelled"))))
        retried = self.ops.bulk("retry", t, result="cancelled")
        self.assertEqual((2, 2), (retried.matched, retried.changed))
        self.assertEqual(3, len(list(self.ops.all_jobs(t, state="pending"))))

        removed = self.ops.bulk("remove", t, limit=10)
        self.assertEqual((3, 3), (removed.matched, removed.changed))
        self.assertEqual([], list(self.ops.all_jobs(t)))
        with self.assertRaises(ValueError):
            self.ops.bulk("delete", t)
        with self.assertRaises(ValueError):
            self.ops.bulk("remove", "")

    def test_me_names_the_caller_with_its_effective_roles_and_types(self):
        me = self.ops.me()
        # clients/test.sh runs the service with one admin token on every type, named "clients"; without a token the
        # service serves loopback as "anonymous", with every role.
        self.assertEqual("clients" if TOKEN else "anonymous", me.name)
        self.assertEqual(["viewer", "producer", "worker", "admin"], me.roles, "admin includes the other roles")
        self.assertIsNone(me.types, "a token on every type")
        if TOKEN:
            with Client(URL, token="not-a-configured-token") as stranger, self.assertRaises(ProblemError) as caught:
                stranger.operations.me()
            self.assertEqual(401, caught.exception.status)


if __name__ == "__main__":
    unittest.main()
