package io.jobfoundry;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.kv.fdb.EnabledIfFdbReachable;
import io.jobfoundry.kv.fdb.FdbTestStores;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas of the packaged service on one FoundationDB cluster, the deployment the FDB store
 * exists for: a job created on one reaches a worker blocked on the other at once; accepts on both
 * never hand one job to two workers; a replica killed with SIGKILL mid-load loses nothing it
 * acknowledged and its running jobs come back after their activity timeout; pause, limits and
 * batches act across replicas. Each test runs under its own key prefix, cleared afterwards.
 * Skipped, with the reason, where {@code FDB_CLUSTER_FILE} names no reachable cluster.
 */
@EnabledIfFdbReachable
class FdbReplicasIT {

    private static final Pattern WAITING_ACCEPTS = Pattern.compile("(?m)^jobfoundry_waits_accepts(?:\\{[^}]*})? ([0-9.]+)");

    private final String prefix = "jobfoundry-replicas-it-" + UUID.randomUUID().toString().substring(0, 8);
    private ServiceProcess one;
    private ServiceProcess two;

    @BeforeEach
    void startTwoReplicas() throws Exception {
        Path folder = Files.createDirectories(Path.of("target/it-stores", prefix));
        Map<String, String> fdb = Map.of("JOBFOUNDRY_STORE", "fdb",
                "JOBFOUNDRY_FDB_CLUSTER_FILE", System.getenv("FDB_CLUSTER_FILE"),
                "JOBFOUNDRY_FDB_KEY_PREFIX", prefix);
        one = new ServiceProcess(folder.resolve("unused-1.db"), folder.resolve("replica-1.log"), fdb);
        two = new ServiceProcess(folder.resolve("unused-2.db"), folder.resolve("replica-2.log"), fdb);
        one.start();
        two.start();
    }

    @AfterEach
    void stopAndClear() throws Exception {
        try {
            one.close();
            two.close();
        } finally {
            FdbTestStores.clearAndClose(FdbTestStores.open(prefix));
        }
    }

    @Test
    void aJobCreatedOnOneReplicaReachesAWorkerBlockedOnTheOther() throws Exception {
        CompletableFuture<Response> blocked = CompletableFuture.supplyAsync(() ->
                on(two).body("{\"types\":[\"handoff\"],\"wait\":60000}").post("/v1/accept"));
        awaitWaitingAccepts(two, 1);

        long created = System.nanoTime();
        on(one).body("{\"data\":{\"n\":7}}").post("/v1/jobs/handoff").then().statusCode(201);
        Response taken = blocked.get(60, TimeUnit.SECONDS);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - created);

        assertEquals(200, taken.statusCode(), taken.asString());
        assertEquals(7, (int) taken.path("[0].data.n"));
        // The accept waited up to 60 s: it came back because the other replica's commit woke its
        // watch, not because its wait ran out or a poll came round.
        assertTrue(millis < 5_000, "the hand-off took " + millis + " ms");
    }

    @Test
    void acceptsOnBothReplicasNeverHandOneJobToTwoWorkers() throws Exception {
        int jobs = 400;
        for (int batch = 0; batch < jobs / 100; batch++) {
            StringBuilder items = new StringBuilder("{\"jobs\":[");
            for (int i = 0; i < 100; i++) {
                items.append(i == 0 ? "" : ",").append("{\"type\":\"shared\",\"data\":{\"n\":").append(batch * 100 + i).append("}}");
            }
            on(batch % 2 == 0 ? one : two).body(items.append("]}").toString()).post("/v1/jobs").then().statusCode(200);
        }

        Map<String, Integer> handedOut = new ConcurrentHashMap<>();
        Set<String> finished = ConcurrentHashMap.newKeySet();
        List<String> refused = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(8);
        for (int w = 0; w < 8; w++) {
            ServiceProcess replica = w % 2 == 0 ? one : two;
            ItSupport.daemon(() -> {
                try {
                    while (finished.size() < jobs) {
                        Response taken = on(replica).body("{\"types\":[\"shared\"],\"max\":4,\"wait\":1000}").post("/v1/accept");
                        if (taken.statusCode() != 200) {
                            continue;
                        }
                        for (Map<String, Object> job : taken.jsonPath().<Map<String, Object>>getList("")) {
                            String id = (String) job.get("id");
                            handedOut.merge(id, 1, Integer::sum);
                            Response finish = on(replica).body("{\"lease\":\"" + job.get("lease") + "\",\"outcome\":\"succeeded\"}")
                                    .post("/v1/jobs/shared/{id}/finish", id);
                            if (finish.statusCode() == 200) {
                                finished.add(id);
                            } else {
                                synchronized (refused) {
                                    refused.add(id + ": " + finish.asString());
                                }
                            }
                        }
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        assertTrue(done.await(180, TimeUnit.SECONDS), "the workers finished " + finished.size() + " of " + jobs);

        assertEquals(List.of(), refused);
        assertEquals(jobs, handedOut.size());
        handedOut.forEach((id, times) -> assertEquals(1, times, id + " was handed out " + times + " times"));
        for (ServiceProcess replica : List.of(one, two)) {
            on(replica).get("/v1/types/shared").then().statusCode(200)
                    .body("counts.succeeded", equalTo(jobs)).body("counts.pending", equalTo(0))
                    .body("counts.running", equalTo(0));
        }
    }

    @Test
    void aReplicaKilledMidLoadLosesNothingAndItsRunningJobsComeBack() throws Exception {
        on(one).body("{\"activityTimeout\":2}").put("/v1/types/crash").then().statusCode(200);
        Set<String> created = ConcurrentHashMap.newKeySet();
        AtomicBoolean writing = new AtomicBoolean(true);
        CountDownLatch busy = new CountDownLatch(200);
        List<Thread> writers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ServiceProcess replica = i % 2 == 0 ? one : two;
            writers.add(ItSupport.daemon(() -> {
                while (writing.get()) {
                    try {
                        Response answer = on(replica).body("{\"data\":{}}").post("/v1/jobs/crash");
                        if (answer.statusCode() == 201) {
                            created.add(answer.path("id"));
                            busy.countDown();
                        }
                    } catch (RuntimeException connectionLost) {
                        if (replica == one) {
                            return; // replica 1 died under this request: it was never acknowledged
                        }
                        throw connectionLost;
                    }
                }
            }));
        }
        assertTrue(busy.await(60, TimeUnit.SECONDS), "the writers got going");
        // A worker on replica 1 takes jobs, then goes quiet with it: they are running, and nobody will finish them.
        List<String> abandoned = on(one).body("{\"types\":[\"crash\"],\"max\":5}").post("/v1/accept")
                .then().statusCode(200).extract().jsonPath().getList("id");
        one.kill();
        writing.set(false);
        for (Thread writer : writers) {
            writer.join(TimeUnit.SECONDS.toMillis(30));
        }

        Map<String, Map<String, Object>> stored = ItSupport.listAll(two.baseUri(), "crash");
        for (String id : created) {
            assertTrue(stored.containsKey(id), "acknowledged create of " + id + " was lost");
        }
        assertEquals(5, abandoned.size());
        for (String id : abandoned) {
            on(two).queryParam("waitFor", "pending").queryParam("timeout", 30_000).get("/v1/jobs/crash/{id}", id)
                    .then().statusCode(200).body("state", equalTo("pending"));
        }
        // ...and a worker on the surviving replica gets them.
        Set<String> retaken = ConcurrentHashMap.newKeySet();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!retaken.containsAll(abandoned) && System.nanoTime() < deadline) {
            Response taken = on(two).body("{\"types\":[\"crash\"],\"max\":100,\"wait\":1000}").post("/v1/accept");
            if (taken.statusCode() == 200) {
                retaken.addAll(taken.jsonPath().getList("id"));
            }
        }
        assertTrue(retaken.containsAll(abandoned), "retaken " + retaken.size() + ", abandoned " + abandoned);
    }

    @Test
    void pauseLimitsAndBatchesActAcrossReplicas() throws Exception {
        // A batch created through one replica is read through the other.
        on(one).body("{\"jobs\":[{\"type\":\"ops\",\"id\":\"a\"},{\"type\":\"ops\",\"id\":\"b\"}]}").post("/v1/jobs")
                .then().statusCode(200).body("jobs.status", equalTo(List.of(201, 201)));
        on(two).get("/v1/jobs/ops/b").then().statusCode(200).body("state", equalTo("pending"));

        // Paused through one replica: the other hands out nothing, and a resume through it wakes a
        // worker blocked on the first.
        on(one).post("/v1/types/ops/pause").then().statusCode(200);
        on(two).body("{\"types\":[\"ops\"]}").post("/v1/accept").then().statusCode(204);
        CompletableFuture<Response> blocked = CompletableFuture.supplyAsync(() ->
                on(one).body("{\"types\":[\"ops\"],\"wait\":60000}").post("/v1/accept"));
        awaitWaitingAccepts(one, 1);
        on(two).post("/v1/types/ops/resume").then().statusCode(200);
        Response first = blocked.get(60, TimeUnit.SECONDS);
        assertEquals(200, first.statusCode(), first.asString());

        // A concurrency limit set through one replica holds on both: one job running, the other waits.
        on(two).body("{\"concurrency\":{\"max\":1}}").put("/v1/types/ops").then().statusCode(200);
        on(two).body("{\"types\":[\"ops\"]}").post("/v1/accept").then().statusCode(204);
        on(one).body("{\"types\":[\"ops\"]}").post("/v1/accept").then().statusCode(204);
        blocked = CompletableFuture.supplyAsync(() -> on(two).body("{\"types\":[\"ops\"],\"wait\":60000}").post("/v1/accept"));
        awaitWaitingAccepts(two, 1);
        String id = first.path("[0].id");
        on(one).body("{\"lease\":\"" + first.path("[0].lease") + "\",\"outcome\":\"succeeded\"}")
                .post("/v1/jobs/ops/{id}/finish", id).then().statusCode(200);
        Response second = blocked.get(60, TimeUnit.SECONDS);
        assertEquals(200, second.statusCode(), second.asString());
        assertFalse(id.equals(second.path("[0].id")));
    }

    private static RequestSpecification on(ServiceProcess replica) {
        return io.restassured.RestAssured.given().baseUri(replica.baseUri()).contentType(ContentType.JSON);
    }

    /** Until the replica's gauge of blocked accepts reads {@code count}: the accept is waiting on the store. */
    private static void awaitWaitingAccepts(ServiceProcess replica, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String metrics = "";
        while (System.nanoTime() < deadline) {
            metrics = on(replica).get("/q/metrics").asString();
            Matcher m = WAITING_ACCEPTS.matcher(metrics);
            if (m.find() && Double.parseDouble(m.group(1)) >= count) {
                return;
            }
            // The gauge is the only outside sign of a blocked accept; there is no event to wait on.
            Thread.sleep(20);
        }
        throw new AssertionError("no accept was blocked on " + replica.baseUri() + ":\n" + metrics);
    }
}
