package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.background.ActivityMonitor;
import io.jobfoundry.jobs.background.DueWaker;
import io.jobfoundry.jobs.background.JobCleaner;
import io.jobfoundry.metrics.JobGauges;
import io.quarkus.test.junit.QuarkusTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code /q/metrics}: what an operator graphs and alerts on, labelled by type and never by job. */
@QuarkusTest
class MetricsTest {

    @Inject
    TestClock clock;

    @Inject
    ActivityMonitor activityMonitor;

    @Inject
    JobGauges gauges;

    @Inject
    JobCleaner cleaner;

    @Inject
    DueWaker waker;

    @Test
    void jobsMovingThroughTheQueueShowInCountersHistogramsAndGauges() {
        String type = Api.type("metrics");
        Api.put(type, "a", "{}").statusCode(201);
        Api.put(type, "b", "{}").statusCode(201);
        Api.put(type, "c", "{}").statusCode(201);
        Api.Taken first = Api.accepted(type);
        Api.finish(type, first.id(), Api.succeeded(first.lease())).statusCode(200);
        Api.Taken second = Api.accepted(type);
        Api.finish(type, second.id(), "{\"lease\":\"" + second.lease() + "\",\"outcome\":\"failed\",\"error\":\"boom\"}")
                .statusCode(200);
        Api.acceptOne(type); // the third; the failed one waits for its retry
        gauges.refresh();

        String metrics = scrape();
        assertEquals(3.0, value(metrics, "jobfoundry_jobs_accepted_total", "type=\"" + type + "\""), 0.0);
        assertEquals(1.0, value(metrics, "jobfoundry_jobs_finished_total", "outcome=\"succeeded\"", "type=\"" + type + "\""), 0.0);
        assertEquals(1.0, value(metrics, "jobfoundry_jobs_finished_total", "outcome=\"failed\"", "type=\"" + type + "\""), 0.0);
        assertEquals(0.0, value(metrics, "jobfoundry_runs_failed_total", "type=\"" + type + "\""), 0.0,
                "a failed attempt with attempts left is no failed run");
        assertEquals(3.0, value(metrics, "jobfoundry_jobs_wait_seconds_count", "type=\"" + type + "\""), 0.0);
        assertEquals(1.0, value(metrics, "jobfoundry_jobs_run_seconds_count", "outcome=\"succeeded\"", "type=\"" + type + "\""), 0.0);
        assertEquals(1.0, value(metrics, "jobfoundry_jobs", "state=\"running\"", "type=\"" + type + "\""), 0.0);
        assertEquals(1.0, value(metrics, "jobfoundry_jobs", "state=\"succeeded\"", "type=\"" + type + "\""), 0.0);
        assertEquals(1.0, value(metrics, "jobfoundry_jobs", "state=\"pending\"", "type=\"" + type + "\""), 0.0,
                "the failed run waits for its retry");
        assertTrue(value(metrics, "jobfoundry_store_transactions_total") > 0);
        if (!Api.onFdb()) {
            // Group commit is the embedded store's; FoundationDB commits each transaction itself.
            assertTrue(value(metrics, "jobfoundry_store_commit_batch_count") > 0);
        }
        assertTrue(value(metrics, "jobfoundry_accept_wait_seconds_count", "outcome=\"jobs\"") >= 3);
        assertTrue(metrics.contains("jobfoundry_store_retries_total{reason=\"conflict\"}"));
        assertTrue(metrics.contains("jobfoundry_store_retries_total{reason=\"throttled\"}"), "FDB's overload, apart");
        assertFalse(metrics.contains("/v1/jobs/" + type), "request paths are labelled by template, not by type and id");
    }

    /** Refused requests that matched no route must not each make a metric series of their raw path. */
    @Test
    void requestsToNoRouteAddNoSeriesOfTheirOwn() {
        String type = Api.type("cardinality");
        for (int i = 0; i < 3; i++) {
            given().patch("/v1/types/" + type + "-" + i).then().statusCode(405);
            given().urlEncodingEnabled(false).get("/v1/jobs/" + type + "/%2E").then().statusCode(400);
        }
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertFalse(metrics.contains(type), "a series of a raw path: "
                + metrics.lines().filter(line -> line.contains(type)).findFirst().orElse(""));
    }

    /**
     * An error of a path without parameters is counted under that path, as its successes are: an
     * alert on the 4xx or 5xx of {@code /v1/jobs} or {@code /v1/accept} must see them.
     */
    @Test
    void errorsOfTheFixedPathsAreCountedUnderThem() throws Exception {
        json("{\"jobs\":[{\"id\":\"no-type\"}]}").post("/v1/jobs").then().statusCode(400);
        given().delete("/v1/accept").then().statusCode(405);
        json("{\"jobs\":[]}").post("/v1/finish").then().statusCode(400);
        String metrics = scrape();
        assertTrue(value(metrics, "http_server_requests_seconds_count", "status=\"400\"", "uri=\"/v1/jobs\"",
                "method=\"POST\"") >= 1);
        assertTrue(value(metrics, "http_server_requests_seconds_count", "status=\"405\"", "uri=\"/v1/accept\"") >= 1);
        assertTrue(value(metrics, "http_server_requests_seconds_count", "status=\"400\"", "uri=\"/v1/finish\"") >= 1);

        // Every fixed path of the API is named, and only those: the set is bounded by the document.
        JsonNode paths = new ObjectMapper().readTree(given().queryParam("format", "json").get("/q/openapi").then()
                .statusCode(200).extract().asString()).get("paths");
        Set<String> fixed = new TreeSet<>();
        paths.fieldNames().forEachRemaining(path -> {
            if (path.startsWith("/v1/") && !path.contains("{")) {
                fixed.add(path);
            }
        });
        assertEquals(fixed, new TreeSet<>(FixedPathMetrics.PATHS));
    }

    @Test
    void activityTimeoutsCountAsRequeued() {
        String type = Api.type("metrics-quiet");
        json("{\"activityTimeout\":5}").put("/v1/types/{type}", type).then().statusCode(200);
        Api.put(type, "j", "{}").statusCode(201);
        Api.acceptOne(type);
        activityMonitor.runOnce();
        clock.advance(Duration.ofSeconds(6));
        activityMonitor.runOnce();

        String metrics = scrape();
        assertEquals(1.0, value(metrics, "jobfoundry_jobs_requeued_total", "type=\"" + type + "\""), 0.0);
        assertEquals(0.0, value(metrics, "jobfoundry_runs_failed_total", "type=\"" + type + "\""), 0.0,
                "attempts remain: the run is retried");
    }

    /**
     * A repeating job's run that fails for good leaves no finished job to count: the job is pending
     * for its next run. The counter is what an alert on "the nightly report failed" watches.
     */
    @Test
    void runsThatFailForGoodAreCountedThoughTheSeriesGoesOn() {
        String type = Api.type("metrics-nightly");
        json("{\"activityTimeout\":5}").put("/v1/types/{type}", type).then().statusCode(200);
        Api.put(type, "report", "{\"repeat\":\"SCHEDULED, +1 MINUTE\",\"maxAttempts\":1}").statusCode(201);
        Api.Taken run = Api.accepted(type);
        Api.finish(type, run.id(), "{\"lease\":\"" + run.lease() + "\",\"outcome\":\"failed\",\"error\":\"db down\"}")
                .statusCode(200);
        Api.get(type, "report").statusCode(200).body("state", org.hamcrest.Matchers.equalTo("pending"));
        assertEquals(1.0, value(scrape(), "jobfoundry_runs_failed_total", "type=\"" + type + "\""), 0.0);

        // The next run's processor goes quiet on its only attempt: that run failed for good too.
        clock.advance(Duration.ofMinutes(1));
        waker.runOnce();
        Api.acceptOne(type);
        activityMonitor.runOnce();
        clock.advance(Duration.ofSeconds(6));
        activityMonitor.runOnce();
        assertEquals(2.0, value(scrape(), "jobfoundry_runs_failed_total", "type=\"" + type + "\""), 0.0);
    }

    @Test
    void retentionRemovalsAreCountedAndTheOldestWaitIsAGauge() {
        String type = Api.type("metrics-kept");
        json("{\"retention\":{\"succeeded\":60}}").put("/v1/types/{type}", type).then().statusCode(200);
        Api.put(type, "done", "{}").statusCode(201);
        Api.finish(type, "done", Api.succeeded(Api.acceptOne(type))).statusCode(200);
        Api.put(type, "waiting", "{}").statusCode(201);
        clock.advance(Duration.ofSeconds(61));
        cleaner.runOnce();
        gauges.refresh();

        String metrics = scrape();
        Api.get(type, "done").statusCode(404);
        assertEquals(1.0, value(metrics, "jobfoundry_jobs_expired_total", "type=\"" + type + "\""), 0.0);
        assertEquals(0.0, value(metrics, "jobfoundry_jobs", "state=\"succeeded\"", "type=\"" + type + "\""), 0.0);
        assertEquals(61.0, value(metrics, "jobfoundry_jobs_latency_seconds", "type=\"" + type + "\""), 1.0,
                "now minus the due time of the job waiting since before the clock moved");
    }

    private static String scrape() {
        return given().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /** The sample of {@code name} whose labels include every one of {@code labels}. */
    private static double value(String metrics, String name, String... labels) {
        Matcher sample = Pattern.compile("(?m)^" + name + "(\\{[^}]*})? (\\S+)$").matcher(metrics);
        while (sample.find()) {
            String found = sample.group(1) == null ? "" : sample.group(1);
            boolean all = true;
            for (String label : labels) {
                all &= found.contains(label);
            }
            if (all) {
                return Double.parseDouble(sample.group(2));
            }
        }
        throw new AssertionError(name + " with " + String.join(",", labels) + " is not in the metrics:\n" + metrics);
    }
}
