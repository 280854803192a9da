"""What the client sends and reads for job dependencies and type limits, against a stub service."""
import unittest

from jobfoundry import Client, Concurrency, JobRef, LeasedJob, NewJob, RateLimit
from jobfoundry.models import Job

from .stub import NO_HEADERS, StubService, job

ORDERS = {"type": "extract", "id": "orders"}
CUSTOMERS = {"type": "extract", "id": "customers"}


def waiting(type_, id_):
    return dict(job(type_, id_), after=[ORDERS, CUSTOMERS], afterFailure="run", waitingFor=[CUSTOMERS],
                someday={"new": True})


class DependenciesTest(unittest.TestCase):
    def test_create_put_and_batch_items_send_after_and_after_failure(self):
        def answer(r):
            if r.path == "/v1/jobs":
                return 200, {"jobs": [{"status": 201, "job": waiting("load", "b1")},
                                      {"status": 200, "job": job("load", "b2")}]}, NO_HEADERS
            return 201, waiting("load", "x"), NO_HEADERS

        orders = Job.from_json(job("extract", "orders", "finished"))
        with StubService(answer) as stub, Client(stub.url) as client:
            created = client.create("load", after=[orders, JobRef("extract", "customers")], after_failure="run")
            client.put("load", "daily", data={"n": 1}, after=[("extract", "orders")])
            client.put("load", "free", after=[])
            client.put("load", "leased", after=[LeasedJob(orders, "L-1")])
            client.create_batch([NewJob("load", None, {"after": [orders.ref], "afterFailure": "cancel"}),
                                 NewJob("load", "b2", {"after": [CUSTOMERS]}),
                                 NewJob("load", "b3")])
            with self.assertRaises(TypeError):
                client.create("load", after=JobRef("extract", "orders"))  # one job, not a list
            with self.assertRaises(TypeError):
                client.create("load", after=["extract/orders"])

        bodies = [r.json() for r in stub.requests]
        self.assertEqual({"after": [ORDERS, CUSTOMERS], "afterFailure": "run"}, bodies[0])
        self.assertEqual("/v1/jobs/load/daily", stub.requests[1].path)
        self.assertEqual({"data": {"n": 1}, "after": [ORDERS]}, bodies[1])
        self.assertEqual({"after": []}, bodies[2], "an empty list is sent")
        self.assertEqual({"after": [ORDERS]}, bodies[3])
        self.assertEqual([{"type": "load", "after": [ORDERS], "afterFailure": "cancel"},
                          {"type": "load", "id": "b2", "after": [CUSTOMERS]},
                          {"type": "load", "id": "b3"}], bodies[4]["jobs"])
        self.assertEqual(5, len(stub.requests), "a wrong after is refused before any request")

        self.assertEqual([JobRef("extract", "orders"), JobRef("extract", "customers")], created.after)
        self.assertEqual([JobRef("extract", "customers")], created.waiting_for)
        self.assertEqual("run", created.after_failure)
        self.assertEqual(JobRef("load", "x"), created.ref)
        self.assertEqual({"new": True}, created.json["someday"], "unknown members are kept in json")

    def test_a_job_without_dependency_members_has_none(self):
        with StubService(lambda r: (200, job("t", "a"), NO_HEADERS)) as stub, Client(stub.url) as client:
            found = client.get("t", "a")
        self.assertEqual(([], "cancel", []), (found.after, found.after_failure, found.waiting_for))


class LimitsTest(unittest.TestCase):
    def test_limits_are_sent_as_the_service_names_them(self):
        type_ = {"type": "t", "activityTimeout": 30, "maxAttempts": 25}
        with StubService(lambda r: (200, type_, NO_HEADERS)) as stub, Client(stub.url) as client:
            client.configure_type("t", {"concurrency": Concurrency(max=50, per_group=2),
                                        "rateLimit": RateLimit(100, 60.0), "maxAttempts": 3})
            client.configure_type("t", {"concurrency": Concurrency(per_group=3),
                                        "rateLimit": RateLimit(5, 1.5, per_group=True)})
            client.configure_type("t", {"concurrency": Concurrency(), "rateLimit": None})
            client.configure_type("t", {"concurrency": {"max": 4}})
        bodies = [r.json() for r in stub.requests]
        self.assertEqual({"concurrency": {"max": 50, "perGroup": 2},
                          "rateLimit": {"count": 100, "seconds": 60, "perGroup": False}, "maxAttempts": 3}, bodies[0])
        self.assertEqual({"concurrency": {"max": None, "perGroup": 3},
                          "rateLimit": {"count": 5, "seconds": 1.5, "perGroup": True}}, bodies[1])
        self.assertEqual({"concurrency": {"max": None, "perGroup": None}, "rateLimit": None}, bodies[2])
        self.assertEqual({"concurrency": {"max": 4}}, bodies[3], "the API's own dicts go as they are")
        self.assertIsInstance(bodies[0]["rateLimit"]["seconds"], int, "a whole number of seconds is sent as one")

    def test_limits_are_read_from_the_type(self):
        limited = {"type": "t", "activityTimeout": 30, "maxAttempts": 25, "future": 1,
                   "concurrency": {"max": None, "perGroup": 2}, "rateLimit": {"count": 10, "seconds": 1.5,
                                                                               "perGroup": True}}
        old = {"type": "old", "activityTimeout": 30, "maxAttempts": 25}
        with StubService(lambda r: (200, old if r.path.endswith("/old") else limited, NO_HEADERS)) as stub, \
                Client(stub.url) as client:
            info, old_info = client.type("t"), client.type("old")
        self.assertEqual(Concurrency(None, 2), info.concurrency)
        self.assertEqual(RateLimit(10, 1.5, True), info.rate_limit)
        self.assertEqual(Concurrency(), old_info.concurrency, "a service without limits has none")
        self.assertIsNone(old_info.rate_limit)


if __name__ == "__main__":
    unittest.main()
