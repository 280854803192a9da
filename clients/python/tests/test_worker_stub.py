"""The worker against a stub service whose answers and timing the test controls, so that batching and halts
happen exactly when the test needs them; test_live_worker shows the same against the real service."""
import json
import threading
import time
import unittest

from jobfoundry import Client, RetryPolicy, Worker, _loops

from .stub import NO_HEADERS, StubService, await_true, halt_problem, job, leased, results

TYPE = {"type": "t", "activityTimeout": 0.3, "maxAttempts": 25, "counts": {}}


def idle():
    threading.Event().wait(0.05)
    return 204, None, NO_HEADERS


class WorkerStubTest(unittest.TestCase):
    def test_finishes_ready_together_go_in_one_batch_and_accepts_ask_for_every_free_slot(self):
        # Job a finishes alone; the service holds that finish until the four others are done, so their finishes
        # are all ready when the next request can go.
        first_finish_arrived = threading.Event()
        others_done = threading.Semaphore(0)
        accepts = []

        def answer(r):
            if r.path.endswith("/finish") and not first_finish_arrived.is_set():
                first_finish_arrived.set()
                for _ in range(4):
                    others_done.acquire(timeout=5)
                # ...and until their handler threads are gone, so that each finish is queued
                await_true(lambda: not any(t.name.startswith("jobfoundry-") and t.name.endswith(
                    ("-handler-b", "-handler-c", "-handler-d", "-handler-e")) for t in threading.enumerate()), 5)
            if r.path == "/v1/types/t":
                return 200, TYPE, NO_HEADERS
            if r.path == "/v1/accept":
                accepts.append(r)
                return (200, leased("t", "a", "b", "c", "d", "e"), NO_HEADERS) if len(accepts) == 1 else idle()
            if r.path in ("/v1/finish", "/v1/heartbeat"):
                return 200, results(r.json()), NO_HEADERS
            return 200, job("t", "x", "running"), NO_HEADERS

        def handler(ctx):
            if ctx.job.id != "a":
                first_finish_arrived.wait(5)
                others_done.release()
            return None

        with StubService(answer) as stub, Client(stub.url) as client:
            worker = Worker(client, handler, ["t"], concurrency=5, accept_wait=0.1).start()
            await_true(lambda: worker.stats().succeeded == 5, 10, "five finished")
            self.assertTrue(worker.shutdown(5))

            self.assertEqual(5, stub.paths("/v1/accept")[0].json()["max"], "the first accept asks for every slot")
            self.assertEqual(1, len(stub.paths("/v1/jobs/t/a/finish")))
            batches = stub.paths("/v1/finish")
            self.assertEqual(1, len(batches), "the four ready finishes went in one request")
            self.assertEqual(4, len(batches[0].json()["jobs"]))
            stats = worker.stats()
            self.assertEqual((1, 1, 4, 5), (stats.finish_calls, stats.finish_batches, stats.largest_finish_batch,
                                            stats.largest_accept))

    def test_accepts_that_come_back_full_never_raise_the_concurrency(self):
        # Every accept brings as many jobs as it asked for: the worker must then ask again only for the slots its
        # handlers free, and never run more than `concurrency` handlers at once.
        lock = threading.Lock()
        state = {"served": 0, "running": 0, "peak": 0}

        def answer(r):
            if r.path == "/v1/types/t":
                return 200, TYPE, NO_HEADERS
            if r.path == "/v1/accept":
                with lock:
                    n = min(r.json()["max"], 40 - state["served"])
                    ids = [f"j{state['served'] + i}" for i in range(n)]
                    state["served"] += n
                return (200, leased("t", *ids), NO_HEADERS) if ids else idle()
            if r.path in ("/v1/finish", "/v1/heartbeat"):
                return 200, results(r.json()), NO_HEADERS
            return 200, job("t", "x", "running"), NO_HEADERS

        def handler(ctx):
            with lock:
                state["running"] += 1
                state["peak"] = max(state["peak"], state["running"])
            threading.Event().wait(0.01)
            with lock:
                state["running"] -= 1
            return None

        with StubService(answer) as stub, Client(stub.url) as client:
            worker = Worker(client, handler, ["t"], concurrency=2, accept_wait=0.1).start()
            await_true(lambda: worker.stats().succeeded == 40, 20, "forty finished")
            self.assertTrue(worker.shutdown(5))

            asked = [a.json()["max"] for a in stub.paths("/v1/accept")]
            self.assertLessEqual(max(asked), 2, f"accepts asked for more than the free slots: {asked}")
            self.assertLessEqual(state["peak"], 2, "more handlers ran at once than the concurrency")
            self.assertLessEqual(worker.stats().largest_accept, 2)

    def test_a_halt_in_a_batch_heartbeat_interrupts_that_handler_only_and_it_is_never_finished(self):
        accepts = []
        b_started = threading.Event()
        b_interrupted = threading.Event()
        b_stopped = threading.Event()

        def answer(r):
            if r.path == "/v1/types/t":
                return 200, TYPE, NO_HEADERS
            if r.path == "/v1/accept":
                accepts.append(r)
                return (200, leased("t", "a", "b"), NO_HEADERS) if len(accepts) == 1 else idle()
            if r.path == "/v1/heartbeat":  # the halt comes once b's handler runs, to show it stop
                return 200, results(r.json(), halted=("b",) if b_started.is_set() else ()), NO_HEADERS
            if r.path == "/v1/finish":
                return 200, results(r.json()), NO_HEADERS
            if r.path == "/v1/jobs/t/b/heartbeat" and b_started.is_set():
                return 409, halt_problem("cancelled"), NO_HEADERS
            return 200, job("t", "x", "finished"), NO_HEADERS

        def handler(ctx):
            if ctx.job.id == "b":
                b_started.set()
                try:
                    n = 0
                    while True:  # busy in Python code, never looking at ctx: only a real interruption stops it
                        n += 1
                except BaseException:
                    b_interrupted.set()
                    raise
                finally:
                    b_stopped.set()
            b_stopped.wait(10)  # a runs until b was halted, so that they beat together
            return {"done": True}

        with StubService(answer) as stub, Client(stub.url) as client:
            worker = Worker(client, handler, ["t"], concurrency=2, accept_wait=0.1).start()
            self.assertTrue(b_stopped.wait(10), "the halted handler stopped")
            await_true(lambda: worker.stats().running == 0, 10, "both let go")
            worker.shutdown(5)

            self.assertTrue(b_interrupted.is_set())
            self.assertFalse([r for r in stub.requests if r.path.endswith("/b/finish")
                              or (r.path == "/v1/finish" and '"b"' in r.body)], "b was never finished")
            stats = worker.stats()
            self.assertEqual((1, 1), (stats.halted, stats.succeeded))
            self.assertGreaterEqual(stats.heartbeat_batches, 1, f"jobs accepted together beat together: {stats}")

    def test_a_service_without_batch_calls_gets_single_calls_and_loses_nothing(self):
        accepts = []
        unknown_path = {"type": "about:blank", "title": "Not Found", "status": 404}

        def answer(r):
            if r.path == "/v1/types/t":
                return 200, TYPE, NO_HEADERS
            if r.path == "/v1/accept":
                accepts.append(r)
                return (200, leased("t", "a", "b", "c"), NO_HEADERS) if len(accepts) == 1 else idle()
            if r.path in ("/v1/finish", "/v1/heartbeat"):
                return 404, unknown_path, NO_HEADERS
            return 200, job("t", "x", "running"), NO_HEADERS

        together = threading.Barrier(3)

        def handler(ctx):
            together.wait(5)
            # Running until the batch beat was tried and this job's own beat came, not for a fixed 0.25 s (a beat
            # is due every 0.1 s): a heartbeat thread woken that late on a busy machine let the jobs end unbeaten.
            await_true(lambda: stub.paths("/v1/heartbeat") and stub.paths(f"/v1/jobs/t/{ctx.job.id}/heartbeat"), 10,
                       "the batch beat and this job's own")

        with StubService(answer) as stub, Client(stub.url) as client:
            worker = Worker(client, handler, ["t"], concurrency=3, accept_wait=0.1).start()
            await_true(lambda: worker.stats().succeeded == 3, 10, "three finished")
            worker.shutdown(5)
            stats = worker.stats()
            self.assertEqual((0, 0, 0), (stats.lost_finishes, stats.finish_batches, stats.heartbeat_batches))
            self.assertEqual(3, len([r for r in stub.requests if r.path.endswith("/finish") and "/jobs/t/" in r.path]))
            self.assertLessEqual(len(stub.paths("/v1/finish")), 1, "the batch call was tried once, then no more")
            self.assertEqual(1, len(stub.paths("/v1/heartbeat")), "jobs accepted together tried one batch beat")
            self.assertGreaterEqual(stats.heartbeat_calls, 3, f"heartbeats went one by one: {stats}")


    def test_a_job_accepted_again_halts_the_older_run_and_no_batch_names_it_twice(self):
        # The worker still runs job a under lease L1 when its own accept hands it a again under L2 (L1 was lost to
        # the activity timeout). Job b runs throughout, so that there is a batch for a to be named twice in.
        first_started, accepts, twice = threading.Event(), [], []
        runs = {}

        def answer(r):
            if r.path == "/v1/types/t":
                return 200, TYPE, NO_HEADERS
            if r.path == "/v1/accept":
                accepts.append(r)
                if len(accepts) == 1:
                    return 200, [dict(job("t", "a", "running"), lease="L1")] + leased("t", "b"), NO_HEADERS
                if len(accepts) == 2 and first_started.wait(5):
                    return 200, [dict(job("t", "a", "running"), lease="L2")], NO_HEADERS
                return idle()
            if r.path in ("/v1/heartbeat", "/v1/finish"):
                ids = [item["id"] for item in r.json()["jobs"]]
                if len(ids) != len(set(ids)):  # as the service does: refused whole
                    twice.append(r.body)
                    return 400, {"type": "tag:jobfoundry.io,2026:problem/invalid-request", "status": 400,
                                 "errors": [{"index": len(ids) - 1, "detail": "this job is in the batch already"}]}, \
                        NO_HEADERS
                return 200, results(r.json()), NO_HEADERS
            return 200, job("t", "x", "running"), NO_HEADERS

        def handler(ctx):
            runs[ctx.leased.lease] = ctx
            if ctx.leased.lease == "L1":
                first_started.set()
            ctx.sleep(30 if ctx.leased.lease == "L1" else 1.0)  # the older run must be stopped to end in time
            return {"done": ctx.leased.lease}

        with StubService(answer) as stub, Client(stub.url) as client:
            worker = Worker(client, handler, ["t"], concurrency=3, accept_wait=0.1).start()
            await_true(lambda: worker.stats().succeeded == 2, 10, "the newer run of a, and b, finished")
            self.assertTrue(worker.shutdown(5))

            self.assertEqual("lease-lost", runs["L1"].halt_reason)
            self.assertEqual([], twice, "no batch named a job twice")
            after_second_accept = stub.requests[stub.requests.index(accepts[1]) + 1:]
            self.assertFalse([r for r in after_second_accept if "L1" in r.body and "heartbeat" in r.path],
                             "the older lease is never heartbeated again")
            finished = [item for r in stub.requests if r.path.endswith("finish")
                        for item in (r.json()["jobs"] if r.path == "/v1/finish" else [dict(r.json(), id="?")])]
            self.assertNotIn("L1", [item["lease"] for item in finished], "the older run is never finished")
            self.assertEqual((1, 2, 0), (worker.stats().halted, worker.stats().succeeded, worker.stats().running))

    def test_an_older_runs_finish_still_waiting_is_not_sent_with_the_newer_runs(self):
        # z's finish is held by the service while a ends under L1, a comes back under L2 and ends too: both of a's
        # finishes wait together, and only the newest lease is the job's.
        accepts, l2_done = [], threading.Event()

        def answer(r):
            if r.path == "/v1/types/t":
                return 200, TYPE, NO_HEADERS
            if r.path == "/v1/accept":
                accepts.append(r)
                if len(accepts) == 1:
                    return 200, leased("t", "z"), NO_HEADERS
                if len(accepts) == 2:
                    return 200, [dict(job("t", "a", "running"), lease="L1")], NO_HEADERS
                if len(accepts) == 3:
                    await_true(lambda: not any(t.name.endswith("-handler-a") for t in threading.enumerate()), 5)
                    return 200, [dict(job("t", "a", "running"), lease="L2")], NO_HEADERS
                return idle()
            if r.path == "/v1/jobs/t/z/finish":
                l2_done.wait(5)
                await_true(lambda: not any(t.name.endswith("-handler-a") for t in threading.enumerate()), 5)
            if r.path == "/v1/finish":
                return 200, results(r.json()), NO_HEADERS
            return 200, job("t", "x", "running"), NO_HEADERS

        def handler(ctx):
            if ctx.leased.lease == "L2":
                l2_done.set()
            return None

        with StubService(answer) as stub, Client(stub.url) as client:
            worker = Worker(client, handler, ["t"], concurrency=1, accept_wait=0.1).start()
            await_true(lambda: worker.stats().running == 0 and worker.stats().accepted == 3, 10, "all let go")
            worker.shutdown(5)

            sent = [(item["id"], item["lease"]) for r in stub.paths("/v1/finish") for item in r.json()["jobs"]]
            sent += [(r.path.split("/")[4], r.json()["lease"]) for r in stub.requests if r.path.startswith("/v1/jobs/")
                     and r.path.endswith("/finish")]
            self.assertEqual(sorted([("z", "L-z"), ("a", "L2")]), sorted(sent), "a's older finish was never sent")
            self.assertEqual((2, 1), (worker.stats().succeeded, worker.stats().halted))

    def test_batches_refused_whole_are_sent_item_by_item_not_again_as_they_were(self):
        # Job b's progress is too large for the service: the heartbeat batch that carries it is refused whole
        # (400 naming it), and so is the finish batch (a plain 400). Neither may be sent again as it was.
        a_finishing, accepts, entered = threading.Event(), [], set()
        too_big = {"type": "tag:jobfoundry.io,2026:problem/data-too-large", "status": 413, "detail": "too large"}

        def answer(r):
            if r.path == "/v1/types/t":
                return 200, TYPE, NO_HEADERS
            if r.path == "/v1/accept":
                accepts.append(r)
                return (200, leased("t", "a", "b", "c"), NO_HEADERS) if len(accepts) == 1 else idle()
            if r.path == "/v1/heartbeat":
                bad = [i for i, item in enumerate(r.json()["jobs"]) if "data" in item]
                if bad:
                    return 400, {"type": "tag:jobfoundry.io,2026:problem/invalid-request", "status": 400,
                                 "errors": [{"index": i, "field": f"jobs[{i}].data", "detail": "too large"}
                                            for i in bad]}, NO_HEADERS
                return 200, results(r.json()), NO_HEADERS
            if r.path == "/v1/finish":
                return 400, {"type": "tag:jobfoundry.io,2026:problem/invalid-request", "status": 400,
                             "field": "jobs", "detail": "refused"}, NO_HEADERS
            if r.path.endswith("/heartbeat") and "data" in r.json():
                return 413, too_big, NO_HEADERS
            if r.path == "/v1/jobs/t/a/finish":  # a's finish waits until b's and c's are both queued
                a_finishing.set()
                await_true(lambda: handlers_returned(entered, "b", "c"), 5)
            return 200, job("t", "x", "running"), NO_HEADERS

        def refused_and_kept():
            return ([r for r in stub.paths("/v1/heartbeat") if "big" in r.body]
                    and {"lease": "L-b"} in [r.json() for r in stub.paths("/v1/jobs/t/b/heartbeat")])

        def handler(ctx):
            entered.add(ctx.job.id)
            if ctx.job.id == "b":
                ctx.progress({"big": "pretend this is 70 KB"})
            # Beating together until the refused batch and b's lease kept without its progress were seen, not for a
            # fixed 0.5 s: a heartbeat thread woken that late on a busy machine let the jobs end before either.
            await_true(refused_and_kept, 10, "the refused batch beat and b's beat without its progress")
            if ctx.job.id != "a":
                a_finishing.wait(5)
            return {"done": True}

        with StubService(answer) as stub, Client(stub.url) as client:
            worker = Worker(client, handler, ["t"], concurrency=3, accept_wait=0.1).start()
            await_true(lambda: worker.stats().running == 0 and worker.stats().accepted == 3, 10, "all three let go")
            worker.shutdown(5)

            refused_beats = [r for r in stub.paths("/v1/heartbeat") if "big" in r.body]
            self.assertEqual(1, len(refused_beats), "the refused heartbeat batch was not sent again")
            singles_b = [r.json() for r in stub.paths("/v1/jobs/t/b/heartbeat")]
            self.assertIn({"lease": "L-b"}, singles_b, "b's lease was kept without the refused progress")
            stats = worker.stats()
            self.assertEqual((3, 0, 0), (stats.succeeded, stats.lost_finishes, stats.halted), f"{stats}")
            self.assertEqual(1, len(stub.paths("/v1/finish")), f"b and c were tried in one batch: {stats}")


    def test_finishes_the_service_refuses_fail_their_jobs_saying_why_and_the_others_go_through(self):
        # b's result is over the data limit and c's exception message holds a lone surrogate (a file name read
        # with surrogateescape); the service, like the real one, refuses a batch with such an item whole.
        accepts, a_finishing, entered = [], threading.Event(), set()

        def problems(item):
            if "big" in (item.get("data") or {}):
                return "data is 70008 bytes serialized; at most 65536 are allowed"
            if any(0xD800 <= ord(ch) <= 0xDFFF for ch in item.get("error", "")):
                return "error has an unpaired surrogate escape: not valid Unicode"
            return None

        def answer(r):
            if r.path == "/v1/types/t":
                return 200, TYPE, NO_HEADERS
            if r.path == "/v1/accept":
                accepts.append(r)
                return (200, leased("t", "a", "b", "c", "d"), NO_HEADERS) if len(accepts) == 1 else idle()
            if r.path == "/v1/finish":
                errors = [{"index": i, "field": f"jobs[{i}].data", "detail": f"jobs[{i}].{problems(item)}"}
                          for i, item in enumerate(r.json()["jobs"]) if problems(item)]
                if errors:
                    return 400, {"type": "tag:jobfoundry.io,2026:problem/invalid-request", "status": 400,
                                 "errors": errors}, NO_HEADERS
                return 200, results(r.json()), NO_HEADERS
            if r.path == "/v1/heartbeat":
                return 200, results(r.json()), NO_HEADERS
            if r.path.endswith("/finish"):
                if problems(r.json()):
                    return 400, {"type": "tag:jobfoundry.io,2026:problem/invalid-request", "status": 400,
                                 "detail": problems(r.json())}, NO_HEADERS
                if r.path == "/v1/jobs/t/a/finish":  # a's finish waits until the others' are all queued
                    a_finishing.set()
                    await_true(lambda: handlers_returned(entered, "b", "c", "d"), 5)
            return 200, job("t", "x", "running"), NO_HEADERS

        def handler(ctx):
            entered.add(ctx.job.id)
            if ctx.job.id != "a":
                a_finishing.wait(5)
            if ctx.job.id == "b":
                return {"big": "pretend this is 70 KB"}
            if ctx.job.id == "c":
                raise OSError("cannot read report-\udcff.csv")
            return {"ok": True}

        with StubService(answer) as stub, Client(stub.url) as client:
            worker = Worker(client, handler, ["t"], concurrency=4, accept_wait=0.1).start()
            await_true(lambda: worker.stats().running == 0 and worker.stats().accepted == 4, 10, "all let go")
            worker.shutdown(5)

            batches = [{item["id"]: item for item in r.json()["jobs"]} for r in stub.paths("/v1/finish")]
            self.assertEqual(2, len(batches), "the refused batch went again once, without what was refused")
            self.assertEqual(["b", "c", "d"], sorted(batches[0]))
            self.assertEqual(batches[0]["d"], batches[1]["d"], "the good finish went again as it was")
            b = batches[1]["b"]
            self.assertEqual("failed", b["outcome"])
            self.assertNotIn("data", b)
            self.assertIn("result", b["error"])
            self.assertIn("at most 65536 are allowed", b["error"])
            self.assertNotIn("jobs[", b["error"])
            self.assertEqual("cannot read report-\ufffd.csv", batches[0]["c"]["error"])
            stats = worker.stats()
            self.assertEqual((2, 2, 0), (stats.succeeded, stats.failed, stats.lost_finishes), f"{stats}")

    def test_a_finish_the_service_cannot_take_for_longer_than_the_retries_is_kept_and_sent_again(self):
        """A restart or a deploy outlasts a call's retries: the finish is kept, the job's heartbeats go on, and it
        is sent when the service is back, rather than the job running again after its activity timeout."""
        down = threading.Event()
        down.set()
        answer = one_job_finishes_unavailable_while(down.is_set)

        again = _loops.LOST_FINISH_AGAIN
        _loops.LOST_FINISH_AGAIN = 0.2
        try:
            with StubService(answer) as stub, Client(stub.url, retry=RetryPolicy(2, 0.01, 0.01)) as client:
                worker = Worker(client, lambda ctx: {"done": True}, ["t"], accept_wait=0.1).start()
                await_true(lambda: len(stub.paths("/v1/jobs/t/a/finish")) >= 6, 10, "the finish sent again, kept")
                self.assertEqual((0, 0, 1), (worker.stats().succeeded, worker.stats().lost_finishes,
                                             worker.stats().running), f"{worker.stats()}")
                beats = len(stub.paths("/v1/jobs/t/a/heartbeat"))
                await_true(lambda: len(stub.paths("/v1/jobs/t/a/heartbeat")) > beats, 10, "its lease renewed meanwhile")
                down.clear()
                await_true(lambda: worker.stats().succeeded == 1, 10, "finished once the service is back")
                self.assertTrue(worker.shutdown(5))
                self.assertEqual(0, worker.stats().lost_finishes, f"{worker.stats()}")
        finally:
            _loops.LOST_FINISH_AGAIN = again

    def test_one_type_named_as_a_string_is_that_type_not_its_letters(self):
        def answer(r):
            if r.path == "/v1/accept":
                return idle()
            return 200, TYPE, NO_HEADERS

        with StubService(answer) as stub, Client(stub.url) as client:
            worker = Worker(client, lambda ctx: None, "email", accept_wait=0.1).start()
            await_true(lambda: stub.paths("/v1/accept"), 10, "an accept")
            worker.shutdown(1)
            self.assertEqual(["email"], stub.paths("/v1/accept")[0].json()["types"])

    def test_a_finish_still_kept_at_the_shutdowns_deadline_is_given_up(self):
        answer = one_job_finishes_unavailable_while(lambda: True)

        with StubService(answer) as stub, Client(stub.url, retry=RetryPolicy(2, 0.01, 0.01)) as client:
            worker = Worker(client, lambda ctx: None, ["t"], accept_wait=0.1).start()
            await_true(lambda: stub.paths("/v1/jobs/t/a/finish"), 10, "the finish tried")
            started = time.monotonic()
            worker.shutdown(1)
            self.assertLess(time.monotonic() - started, 8, "the shutdown does not wait for the service")
            self.assertEqual((1, 0), (worker.stats().lost_finishes, worker.stats().running), f"{worker.stats()}")


def one_job_finishes_unavailable_while(down):
    """A service that hands out job ``a`` of type ``t`` once, and answers its finishes 503 while ``down()``."""
    accepts = []
    unavailable = {"type": "about:blank", "title": "Service Unavailable", "status": 503}

    def answer(r):
        if r.path == "/v1/types/t":
            return 200, TYPE, NO_HEADERS
        if r.path == "/v1/accept":
            accepts.append(r)
            return (200, leased("t", "a"), NO_HEADERS) if len(accepts) == 1 else idle()
        if down() and r.path.endswith("/finish"):
            return 503, unavailable, NO_HEADERS
        return 200, job("t", "a", "running"), NO_HEADERS

    return answer


if __name__ == "__main__":
    unittest.main()


def handlers_returned(entered, *ids: str) -> bool:
    """Whether the handlers of jobs ``ids`` have all run and returned, so that their finishes are queued. Their
    threads gone is not enough alone: a thread the worker has not started yet is not there either."""
    return set(ids) <= entered and not any(t.name.endswith(tuple(f"-handler-{i}" for i in ids))
                                           for t in threading.enumerate())
