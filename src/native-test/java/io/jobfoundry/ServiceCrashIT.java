package io.jobfoundry;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Crash safety end to end: jobs in every state, writers and a worker busy, the service killed with
 * SIGKILL and started again on the same store. Nothing the service acknowledged may be lost; a
 * running job whose processor is still alive continues under its lease, one whose processor went
 * quiet times out and its lease dies.
 */
class ServiceCrashIT {

    private final String prefix = "crash-" + UUID.randomUUID().toString().substring(0, 8);
    private final String load = prefix + "-load";
    private String baseUri;

    @Test
    void nothingAcknowledgedIsLostAndLeasesSurviveOrTimeOut() throws Exception {
        Path folder = Files.createDirectories(Path.of("target/it-stores", prefix));
        try (ServiceProcess service = new ServiceProcess(folder.resolve("jobfoundry.db"), folder.resolve("service.log"),
                Map.of())) {
            service.start();
            baseUri = service.baseUri();

            // One job in each state, each type with its own name so accepts take exactly it.
            given(("{\"activityTimeout\":3600}")).put("/v1/types/{type}", prefix + "-keep").then().statusCode(200);
            given(("{\"activityTimeout\":2}")).put("/v1/types/{type}", prefix + "-stale").then().statusCode(200);
            put(prefix + "-pending", "p", "{\"data\":{\"n\":1}}");
            put(prefix + "-scheduled", "s", "{\"scheduledAt\":\"2999-01-01T00:00:00Z\"}");
            put(prefix + "-keep", "k", "{}");
            String keepLease = accept(prefix + "-keep");
            put(prefix + "-done", "ok", "{}");
            finish(prefix + "-done", "ok", accept(prefix + "-done"), "succeeded").then().statusCode(200);
            put(prefix + "-failed", "f", "{\"maxAttempts\":1}");
            finish(prefix + "-failed", "f", accept(prefix + "-failed"), "failed").then().statusCode(200);
            put(prefix + "-cancelled", "c", "{}");
            given(("{}")).post("/v1/jobs/{type}/{id}/cancel", prefix + "-cancelled", "c").then().statusCode(200);

            // Writers and a worker are mid-flight when the process dies.
            Set<String> created = ConcurrentHashMap.newKeySet();
            Set<String> finished = ConcurrentHashMap.newKeySet();
            AtomicBoolean running = new AtomicBoolean(true);
            CountDownLatch busy = new CountDownLatch(100);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                threads.add(ItSupport.daemon(() -> {
                    while (running.get()) {
                        try {
                            Response answer = given(("{\"data\":{\"n\":2}}")).post("/v1/jobs/{type}", load);
                            if (answer.statusCode() == 201) {
                                created.add(answer.path("id"));
                                busy.countDown();
                            }
                        } catch (RuntimeException connectionLost) {
                            return; // the service died under this request: it was never acknowledged
                        }
                    }
                }));
            }
            threads.add(ItSupport.daemon(() -> {
                while (running.get()) {
                    try {
                        Response taken = given(("{\"types\":[\"" + load + "\"],\"wait\":1000}")).post("/v1/accept");
                        if (taken.statusCode() == 200) {
                            String id = taken.path("[0].id");
                            if (finish(load, id, taken.path("[0].lease"), "succeeded").statusCode() == 200) {
                                finished.add(id);
                            }
                        }
                    } catch (RuntimeException connectionLost) {
                        return;
                    }
                }
            }));
            assertTrue(busy.await(60, TimeUnit.SECONDS), "the writers got going");
            // Taken just before the crash, so its processor goes quiet only after the restart.
            put(prefix + "-stale", "q", "{}");
            String staleLease = accept(prefix + "-stale");
            service.kill();
            running.set(false);
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }

            service.start();
            // The operator is told the store was not closed; the first start, on a new store, was not such a start.
            String log = Files.readString(folder.resolve("service.log"));
            assertEquals(1, log.split("was not closed by the process before this one", -1).length - 1, log);

            state(prefix + "-pending", "p").body("state", equalTo("pending")).body("data.n", equalTo(1));
            state(prefix + "-scheduled", "s").body("state", equalTo("pending"))
                    .body("scheduledAt", equalTo("2999-01-01T00:00:00Z"));
            state(prefix + "-done", "ok").body("state", equalTo("finished")).body("result", equalTo("succeeded"));
            state(prefix + "-failed", "f").body("state", equalTo("finished")).body("result", equalTo("failed"));
            state(prefix + "-cancelled", "c").body("state", equalTo("finished")).body("result", equalTo("cancelled"));

            // A processor that lived through the crash carries on under its lease.
            given(("{\"lease\":\"" + keepLease + "\"}")).post("/v1/jobs/{type}/{id}/heartbeat", prefix + "-keep", "k")
                    .then().statusCode(200).body("state", equalTo("running"));
            finish(prefix + "-keep", "k", keepLease, "succeeded").then().statusCode(200).body("result", equalTo("succeeded"));

            // One that went quiet times out after the restart too, and its lease is dead.
            given().baseUri(baseUri).queryParam("waitFor", "pending").queryParam("timeout", 30_000)
                    .get("/v1/jobs/{type}/{id}", prefix + "-stale", "q").then().statusCode(200)
                    .body("state", equalTo("pending"));
            given(("{\"lease\":\"" + staleLease + "\"}")).post("/v1/jobs/{type}/{id}/heartbeat", prefix + "-stale", "q")
                    .then().statusCode(409).body("reason", equalTo("lease-lost"));

            assertFalse(created.isEmpty());
            Map<String, Map<String, Object>> stored = ItSupport.listAll(baseUri, load);
            for (String id : created) {
                assertTrue(stored.containsKey(id), "acknowledged create of " + id + " was lost");
            }
            for (String id : finished) {
                assertEquals("succeeded", stored.get(id).get("result"), "acknowledged finish of " + id + " was lost");
            }
            assertCountsMatch(load, stored);
        }
    }

    private RequestSpecification given(String body) {
        return given().baseUri(baseUri).contentType(ContentType.JSON).body(body);
    }

    private RequestSpecification given() {
        return io.restassured.RestAssured.given().baseUri(baseUri);
    }

    private void put(String type, String id, String body) {
        given(body).put("/v1/jobs/{type}/{id}", type, id).then().statusCode(201);
    }

    private String accept(String type) {
        return given("{\"types\":[\"" + type + "\"],\"worker\":\"crash-it\"}").post("/v1/accept").then().statusCode(200)
                .extract().path("[0].lease");
    }

    private Response finish(String type, String id, String lease, String outcome) {
        return given("{\"lease\":\"" + lease + "\",\"outcome\":\"" + outcome + "\"}")
                .post("/v1/jobs/{type}/{id}/finish", type, id);
    }

    private ValidatableResponse state(String type, String id) {
        return given().get("/v1/jobs/{type}/{id}", type, id).then().statusCode(200);
    }

    /** The per-type counters are kept in the same transactions as the jobs: a crash cannot skew them. */
    private void assertCountsMatch(String type, Map<String, Map<String, Object>> stored) {
        Map<String, Integer> byState = new HashMap<>();
        for (Map<String, Object> job : stored.values()) {
            String state = (String) job.get("state");
            String key = state.equals("finished") ? (String) job.get("result") : state;
            byState.merge(key, 1, Integer::sum);
        }
        JsonPath counts = given().get("/v1/types/{type}", type).then().statusCode(200).extract().jsonPath();
        for (String state : List.of("pending", "running", "succeeded", "failed", "cancelled")) {
            assertEquals(byState.getOrDefault(state, 0), counts.getInt("counts." + state), "count of " + state);
        }
    }
}
