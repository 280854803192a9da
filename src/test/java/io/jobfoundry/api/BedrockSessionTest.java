package io.jobfoundry.api;

import static io.jobfoundry.api.Api.get;
import static io.jobfoundry.api.Api.json;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobfoundry.jobs.background.DueWaker;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sample session of Bedrock::Jobs, over this API: CreateJob with data and a repeat, GetJob by
 * glob, UpdateJob progress seen by QueryJob, FinishJob with new data, and the next run a minute
 * later carrying that data. Then a blocking GetJob released by another client's CreateJob, and
 * GetJobs with a maximum.
 */
@QuarkusTest
class BedrockSessionTest {

    @Inject
    TestClock clock;

    @Inject
    DueWaker waker;

    @Test
    void theSampleSessionOfBedrockJobs() {
        String family = "CheckLiveness" + UUID.randomUUID().toString().substring(0, 8);
        String type = family + ".web";
        String id = json("{\"data\":{\"url\":\"https://example.org\"},\"repeat\":\"finished, +1 minute\"}")
                .post("/v1/jobs/{type}", type).then().statusCode(201)
                .body("repeat", equalTo("FINISHED, +1 MINUTE")).extract().path("id");

        Response got = json("{\"types\":[\"" + family + "*\"],\"worker\":\"bedrock-client\"}").post("/v1/accept");
        assertEquals(200, got.statusCode());
        assertEquals(id, got.path("[0].id"));
        String lease = got.path("[0].lease");

        json("{\"lease\":\"" + lease + "\",\"data\":{\"url\":\"https://example.org\",\"progress\":50}}")
                .post("/v1/jobs/{type}/{id}/heartbeat", type, id).then().statusCode(200);
        get(type, id).statusCode(200).body("data.progress", equalTo(50)).body("state", equalTo("running"));

        json("{\"lease\":\"" + lease + "\",\"outcome\":\"succeeded\",\"data\":{\"url\":\"https://example.org\",\"lastStatus\":200}}")
                .post("/v1/jobs/{type}/{id}/finish", type, id).then().statusCode(200)
                .body("state", equalTo("pending"));
        json("{\"types\":[\"" + family + "*\"]}").post("/v1/accept").then().statusCode(204);

        clock.advance(Duration.ofMinutes(1).plusSeconds(1));
        waker.runOnce();
        json("{\"types\":[\"" + family + "*\"]}").post("/v1/accept").then().statusCode(200)
                .body("[0].id", equalTo(id))
                .body("[0].data.lastStatus", equalTo(200));
    }

    @Test
    void aBlockingGetJobIsReleasedByAnotherClientsCreateJob() throws Exception {
        String type = "Blocking" + UUID.randomUUID().toString().substring(0, 8);
        CompletableFuture<Response> waiting = CompletableFuture.supplyAsync(() ->
                json("{\"types\":[\"" + type + "\"],\"wait\":20000}").post("/v1/accept"));
        // Nothing is due yet: the accept is parked, not answered.
        json("{\"data\":{\"n\":1}}").post("/v1/jobs/{type}", type).then().statusCode(201);
        Response released = waiting.get(30, TimeUnit.SECONDS);
        assertEquals(200, released.statusCode());
        assertEquals(1, (int) released.path("[0].data.n"));
    }

    @Test
    void getJobsHandsOutUpToMax() {
        String type = "Batch" + UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < 3; i++) {
            json("{}").post("/v1/jobs/{type}", type).then().statusCode(201);
        }
        json("{\"types\":[\"" + type + "\"],\"max\":2}").post("/v1/accept").then().statusCode(200).body("$", hasSize(2));
        json("{\"types\":[\"" + type + "\"],\"max\":2}").post("/v1/accept").then().statusCode(200).body("$", hasSize(1));
        json("{\"types\":[\"" + type + "\"],\"max\":2}").post("/v1/accept").then().statusCode(204);
    }
}
