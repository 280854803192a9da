package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the client sends and reads for job dependencies and type limits, against a stub service. */
class DependenciesAndLimitsTest {

    /** A job object as the service writes it, with dependencies. */
    private static String jobWaiting(String type, String id) {
        String job = StubService.job(type, id, "pending");
        return job.substring(0, job.length() - 1) + ",\"after\":[{\"type\":\"extract\",\"id\":\"orders\"},"
                + "{\"type\":\"extract\",\"id\":\"customers\"}],\"afterFailure\":\"run\","
                + "\"waitingFor\":[{\"type\":\"extract\",\"id\":\"customers\"}],"
                + "\"someday\":{\"new\":true}}";
    }

    private static JsonNode body(StubService.Request request) throws Exception {
        return Json.MAPPER.readTree(request.body());
    }

    @Test
    void createPutAndBatchItemsSendAfterAndAfterFailure() throws Exception {
        try (StubService stub = new StubService(r -> switch (r.path()) {
            case "/v1/jobs" -> StubService.Reply.json(200, "{\"jobs\":[{\"status\":201,\"job\":" + jobWaiting("load", "b1")
                    + "},{\"status\":200,\"job\":" + StubService.job("load", "b2", "pending") + "}]}");
            default -> StubService.Reply.json(201, jobWaiting("load", "x"));
        })) {
            JobfoundryClient client = JobfoundryClient.create(stub.url());
            Job orders = Json.job(Json.MAPPER.readTree(StubService.job("extract", "orders", "finished")));
            Job created = client.create("load", JobSpec.empty().after(orders.ref(), JobRef.of("extract", "customers"))
                    .afterFailure(AfterFailure.RUN));
            client.put("load", "daily", JobSpec.withData(Map.of("n", 1)).after(List.of(JobRef.of("extract", "orders"))));
            client.put("load", "free", JobSpec.empty().after(List.of()));
            client.createBatch(List.of(
                    NewJob.of("load", JobSpec.empty().after(orders.ref()).afterFailure(AfterFailure.CANCEL)),
                    new NewJob("load", "b2", JobSpec.empty())));

            assertEquals(Json.MAPPER.readTree("{\"after\":[{\"type\":\"extract\",\"id\":\"orders\"},"
                    + "{\"type\":\"extract\",\"id\":\"customers\"}],\"afterFailure\":\"run\"}"), body(stub.requests.get(0)));
            assertEquals("/v1/jobs/load/daily", stub.requests.get(1).path());
            assertEquals(Json.MAPPER.readTree("{\"data\":{\"n\":1},\"after\":[{\"type\":\"extract\",\"id\":\"orders\"}]}"),
                    body(stub.requests.get(1)));
            assertEquals(Json.MAPPER.readTree("{\"after\":[]}"), body(stub.requests.get(2)), "an empty list is sent");
            JsonNode items = body(stub.requests.get(3)).get("jobs");
            assertEquals(Json.MAPPER.readTree("{\"type\":\"load\",\"after\":[{\"type\":\"extract\",\"id\":\"orders\"}],"
                    + "\"afterFailure\":\"cancel\"}"), items.get(0));
            assertFalse(items.get(1).has("after"), "a member never set is not sent");

            assertEquals(List.of(JobRef.of("extract", "orders"), JobRef.of("extract", "customers")), created.after());
            assertEquals(List.of(JobRef.of("extract", "customers")), created.waitingFor());
            assertEquals(AfterFailure.RUN, created.afterFailure());
            assertEquals(JobRef.of("load", "x"), created.ref());
            assertTrue(created.json().get("someday").get("new").asBoolean(), "unknown members are kept in json()");
        }
    }

    @Test
    void aJobWithoutDependencyMembersHasNone() throws Exception {
        try (StubService stub = new StubService(r -> StubService.Reply.json(200, StubService.job("t", "a", "pending")))) {
            Job job = JobfoundryClient.create(stub.url()).get("t", "a").orElseThrow();
            assertEquals(List.of(), job.after());
            assertEquals(AfterFailure.CANCEL, job.afterFailure());
            assertEquals(List.of(), job.waitingFor());
        }
    }

    @Test
    void limitsAreSentAsTheServiceNamesThem() throws Exception {
        try (StubService stub = new StubService(r -> StubService.Reply.json(200,
                "{\"type\":\"t\",\"activityTimeout\":30,\"maxAttempts\":25}"))) {
            JobfoundryClient client = JobfoundryClient.create(stub.url());
            client.configureType("t", Map.of("concurrency", new Concurrency(50, 2),
                    "rateLimit", RateLimit.of(100, Duration.ofMinutes(1))));
            client.configureType("t", Map.of("concurrency", Concurrency.perGroup(3),
                    "rateLimit", RateLimit.of(5, Duration.ofMillis(1500)).eachGroup()));
            Map<String, Object> lift = new HashMap<>();
            lift.put("concurrency", Concurrency.UNLIMITED);
            lift.put("rateLimit", null);
            client.configureType("t", lift);

            assertEquals(Json.MAPPER.readTree("{\"concurrency\":{\"max\":50,\"perGroup\":2},"
                    + "\"rateLimit\":{\"count\":100,\"seconds\":60,\"perGroup\":false}}"), body(stub.requests.get(0)));
            JsonNode second = body(stub.requests.get(1));
            assertEquals(Json.MAPPER.readTree("{\"max\":null,\"perGroup\":3}"), second.get("concurrency"));
            assertEquals(1.5, second.get("rateLimit").get("seconds").asDouble());
            assertTrue(second.get("rateLimit").get("perGroup").asBoolean());
            assertEquals(Json.MAPPER.readTree("{\"concurrency\":{\"max\":null,\"perGroup\":null},\"rateLimit\":null}"),
                    body(stub.requests.get(2)));
        }
    }

    @Test
    void limitsAreReadFromTheType() throws Exception {
        String limited = "{\"type\":\"t\",\"activityTimeout\":30,\"maxAttempts\":25,\"concurrency\":{\"max\":null,"
                + "\"perGroup\":2},\"rateLimit\":{\"count\":10,\"seconds\":1.5,\"perGroup\":true},\"future\":1}";
        try (StubService stub = new StubService(r -> StubService.Reply.json(200, r.path().endsWith("/old")
                ? "{\"type\":\"old\",\"activityTimeout\":30,\"maxAttempts\":25}" : limited))) {
            JobfoundryClient client = JobfoundryClient.create(stub.url());
            TypeInfo type = client.type("t").orElseThrow();
            assertEquals(new Concurrency(null, 2), type.concurrency());
            assertEquals(new RateLimit(10, Duration.ofMillis(1500), true), type.rateLimit());

            TypeInfo old = client.type("old").orElseThrow();
            assertEquals(Concurrency.UNLIMITED, old.concurrency(), "a service without limits has none");
            assertNull(old.rateLimit());
        }
    }
}
