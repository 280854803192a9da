package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** {@code GET /v1/jobs/{type}/{id}/events}: the current state first, every change, then removal. */
@QuarkusTest
class JobEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eventsFollowTheJobFromItsCurrentStateToItsRemoval() throws Exception {
        String type = Api.type("events");
        Api.put(type, "j", "{\"data\":{\"v\":1}}").statusCode(201);
        try (SseClient events = SseClient.open("/v1/jobs/" + type + "/j/events")) {
            // A change right after the response started is not missed: the subscription came first.
            Api.put(type, "j", "{\"data\":{\"v\":2}}").statusCode(200);

            JsonNode first = state(events.next(), "pending");
            assertEquals(1, first.get("data").get("v").asInt());
            SseClient.Event changed = events.next();
            assertEquals(2, state(changed, "pending").get("data").get("v").asInt());

            String lease = Api.acceptOne(type);
            SseClient.Event running = events.next();
            state(running, "running");
            assertTrue(Long.parseLong(running.id()) > Long.parseLong(changed.id()), "ids are increasing revisions");

            Api.heartbeat(type, "j", "{\"lease\":\"" + lease + "\",\"data\":{\"progress\":50}}").statusCode(200);
            assertEquals(50, state(events.next(), "running").get("data").get("progress").asInt());

            Api.finish(type, "j", Api.succeeded(lease)).statusCode(200);
            assertEquals("succeeded", state(events.next(), "finished").get("result").asText());

            given().delete("/v1/jobs/{type}/{id}", type, "j").then().statusCode(204);
            SseClient.Event removed = events.next();
            assertEquals("removed", removed.name());
            assertEquals(type, JSON.readTree(removed.data()).get("type").asText());
            assertEquals("j", JSON.readTree(removed.data()).get("id").asText());
            events.assertEnded();
        }
    }

    @Test
    void eventsOfAnUnknownJobAre404() {
        given().accept("text/event-stream").get("/v1/jobs/{type}/{id}/events", Api.type("events"), "none").then()
                .statusCode(404).contentType("application/problem+json");
        given().get("/v1/jobs/{type}/{id}/events", "bad name", "x").then().statusCode(400)
                .contentType("application/problem+json");
    }

    @Test
    void aClientThatLeavesDoesNotDisturbOthers() throws Exception {
        String type = Api.type("events-leave");
        Api.put(type, "j", "{}").statusCode(201);
        try (SseClient staying = SseClient.open("/v1/jobs/" + type + "/j/events")) {
            SseClient leaving = SseClient.open("/v1/jobs/" + type + "/j/events");
            state(leaving.next(), "pending");
            leaving.close();
            state(staying.next(), "pending");
            Api.acceptOne(type);
            state(staying.next(), "running");
        }
    }

    @Test
    void aQuietStreamGetsKeepAliveComments() throws Exception {
        String type = Api.type("events-quiet");
        Api.put(type, "j", "{}").statusCode(201);
        try (SseClient events = SseClient.open("/v1/jobs/" + type + "/j/events")) {
            state(events.next(), "pending");
            assertEquals("keep-alive", events.nextComment()); // every 100 ms in the test profile
            assertEquals("keep-alive", events.nextComment());
            given().delete("/v1/jobs/{type}/{id}", type, "j").then().statusCode(204);
            assertEquals("removed", events.next().name());
            events.assertEnded();
        }
    }

    private static JsonNode state(SseClient.Event event, String state) throws Exception {
        assertEquals("state", event.name(), "event " + event);
        JsonNode job = JSON.readTree(event.data());
        assertEquals(state, job.get("state").asText(), "event " + event);
        assertTrue(Long.parseLong(event.id()) > 0);
        return job;
    }
}
