package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.background.DependencyResolver;
import io.jobfoundry.jobs.waits.JobWaits;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A token confined to {@code email*} can neither see, accept, change nor learn of a
 * {@code billing} job, through any door: reads, waits, events, listings, counts, types, accepts
 * (globs are narrowed to its types), batches (refused whole, nothing created) and dependencies
 * (another type's job named in {@code after} is one that does not exist; one named by a job of its
 * type is left out of what it is shown).
 */
@QuarkusTest
@TestProfile(TokensProfile.class)
class TypeScopeTest {

    @Inject
    JobWaits waits;

    @Inject
    DependencyResolver resolver;

    private String billing;
    private String email;

    @BeforeEach
    void aBillingJobAndAnEmailJob() {
        billing = Api.type("billing");
        email = Api.type("email");
        admin().contentType(ContentType.JSON).body("{\"data\":{\"amount\":12}}")
                .put("/v1/jobs/{type}/{id}", billing, "invoice-1").then().statusCode(201);
        admin().contentType(ContentType.JSON).body("{}").put("/v1/jobs/{type}/{id}", email, "welcome-1").then()
                .statusCode(201);
    }

    @Test
    void itCannotReadWaitForOrFollowTheJobNorTellWhetherItExists() {
        for (String id : List.of("invoice-1", "no-such-job")) {
            forbidden(confined().get("/v1/jobs/{type}/{id}", billing, id).then());
            forbidden(confined().get("/v1/jobs/{type}/{id}?waitFor=finished&timeout=100", billing, id).then());
            forbidden(confined().get("/v1/jobs/{type}/{id}/events", billing, id).then());
        }
        confined().get("/v1/jobs/{type}/{id}", email, "welcome-1").then().statusCode(200);
    }

    @Test
    void listingsCountsAndTypesShowOnlyItsTypes() {
        forbidden(confined().get("/v1/jobs/{type}", billing).then());
        forbidden(confined().queryParam("order", "recent").get("/v1/jobs/{type}", billing).then());
        confined().queryParam("order", "recent").get("/v1/jobs/{type}", email).then().statusCode(200);
        forbidden(confined().get("/v1/types/{type}", billing).then());
        confined().get("/v1/types").then().statusCode(200)
                .body("types.type", hasItem(email)).body("types.type", not(hasItem(billing)));
        List<String> seen = confined().get("/v1/types").then().extract().path("types.type");
        assertTrue(seen.stream().allMatch(t -> t.startsWith("email")), seen.toString());
        admin().get("/v1/types").then().body("types.type", hasItem(billing));
        // The gauges name every type: a confined token may not read them.
        confined().get("/q/metrics").then().statusCode(403).contentType("application/problem+json");
    }

    @Test
    void listingsAcrossTypesGroupsAndBulkActionsStayWithinItsTypes() {
        forbidden(confined().get("/v1/jobs?type={type}", billing).then());
        forbidden(confined().get("/v1/types/{type}/groups", billing).then());
        List<String> listed = confined().get("/v1/jobs?limit=1000").then().statusCode(200).extract().path("jobs.type");
        assertTrue(listed.stream().allMatch(t -> t.startsWith("email")), listed.toString());
        List<String> globbed = confined().get("/v1/jobs?type=*-*&limit=1000").then().statusCode(200)
                .extract().path("jobs.type");
        assertTrue(globbed.stream().allMatch(t -> t.startsWith("email")), globbed.toString());
        forbidden(json(confined(), "{\"action\":\"cancel\",\"filter\":{\"type\":\"" + billing + "\"}}")
                .post("/v1/bulk").then());
        // Both jobs in one group of their own: a bulk over every type in it touches only the email job.
        String group = Api.type("g");
        for (String type : List.of(billing, email)) {
            json(admin(), "{\"group\":\"" + group + "\"}").put("/v1/jobs/{type}/{id}", type, "grouped").then()
                    .statusCode(201);
        }
        json(confined(), "{\"action\":\"cancel\",\"filter\":{\"type\":\"*\",\"group\":\"" + group + "\"}}")
                .post("/v1/bulk").then().statusCode(200).body("matched", equalTo(1));
        admin().get("/v1/jobs/{type}/{id}", billing, "grouped").then().body("state", equalTo("pending"));
        admin().get("/v1/jobs/{type}/{id}", email, "grouped").then().body("result", equalTo("cancelled"));
    }

    @Test
    void itCannotChangeTheJobOrItsType() {
        String before = admin().get("/v1/jobs/{type}/{id}", billing, "invoice-1").then().statusCode(200)
                .extract().asString();
        forbidden(json(confined(), "{}").put("/v1/jobs/{type}/{id}", billing, "invoice-1").then());
        forbidden(json(confined(), "{}").post("/v1/jobs/{type}", billing).then());
        forbidden(json(confined(), "{\"priority\":\"high\"}").patch("/v1/jobs/{type}/{id}", billing, "invoice-1").then());
        forbidden(json(confined(), "{}").post("/v1/jobs/{type}/{id}/cancel", billing, "invoice-1").then());
        forbidden(json(confined(), "{}").post("/v1/jobs/{type}/{id}/resubmit", billing, "invoice-1").then());
        forbidden(confined().delete("/v1/jobs/{type}/{id}", billing, "invoice-1").then());
        forbidden(json(confined(), "{\"maxAttempts\":1}").put("/v1/types/{type}", billing).then());
        forbidden(confined().post("/v1/types/{type}/pause", billing).then());
        forbidden(confined().delete("/v1/types/{type}", billing).then());
        // Nothing changed: the job reads as it did, byte for byte (its revision included); the type is not paused.
        assertEquals(before, admin().get("/v1/jobs/{type}/{id}", billing, "invoice-1").then().statusCode(200)
                .extract().asString());
        admin().get("/v1/types/{type}", billing).then().body("paused", equalTo(false));
    }

    @Test
    void aGlobOverlappingTheScopeWaitsForATypeNotYetUsedAndGetsOnlyItsScopesJobs() throws Exception {
        // A worker for "*-late…" under a token for "email*", started before any such type exists: the
        // accept waits (204 at the end of its wait), and a type both globs match, first used while it
        // waits, is served; a billing job of the same shape is not.
        String late = "-late" + java.util.UUID.randomUUID().toString().substring(0, 6);
        String accept = "{\"types\":[\"*" + late + "\"],\"max\":10,\"wait\":%d}";
        json(confined(), accept.formatted(200)).post("/v1/accept").then().statusCode(204);
        // The engine's own pattern of two globs is no request's to send.
        json(confined(), "{\"types\":[\"email*&*" + late + "\"]}").post("/v1/accept").then().statusCode(400)
                .body("field", org.hamcrest.Matchers.equalTo("types"));

        int waitingBefore = waits.waitingAccepts();
        CompletableFuture<ValidatableResponse> waiting = CompletableFuture.supplyAsync(() ->
                json(confined(), accept.formatted(20_000)).post("/v1/accept").then());
        WaitsTest.awaitCondition(() -> waits.waitingAccepts() > waitingBefore);
        admin().contentType(ContentType.JSON).body("{}").put("/v1/jobs/{type}/{id}", billing + late, "b").then()
                .statusCode(201);
        admin().contentType(ContentType.JSON).body("{}").put("/v1/jobs/{type}/{id}", email + late, "e").then()
                .statusCode(201);
        ValidatableResponse answer = waiting.get().statusCode(200);
        assertEquals(List.of(email + late), answer.extract().path("type"));
        admin().get("/v1/jobs/{type}/{id}", billing + late, "b").then().body("state", equalTo("pending"));
    }

    @Test
    void anAcceptOfEveryTypeGetsOnlyItsTypes() throws Exception {
        // A waiting accept must not be handed the billing job added while it waits, either.
        int waitingBefore = waits.waitingAccepts();
        CompletableFuture<ValidatableResponse> waiting = CompletableFuture.supplyAsync(() ->
                json(confined(), "{\"types\":[\"*\"],\"max\":100,\"wait\":1500}").post("/v1/accept").then());
        WaitsTest.awaitCondition(() -> waits.waitingAccepts() > waitingBefore);
        admin().contentType(ContentType.JSON).body("{}").put("/v1/jobs/{type}/{id}", billing, "invoice-2").then()
                .statusCode(201);
        acceptedOnlyEmail(waiting.get());
        acceptedOnlyEmail(json(confined(), "{\"types\":[\"*\"],\"max\":100}").post("/v1/accept").then());
        acceptedOnlyEmail(json(confined(), "{\"types\":[\"*-*\"],\"max\":100}").post("/v1/accept").then());
        forbidden(json(confined(), "{\"types\":[\"" + billing + "\"]}").post("/v1/accept").then());
        forbidden(json(confined(), "{\"types\":[\"bill*\"]}").post("/v1/accept").then());
        for (String id : List.of("invoice-1", "invoice-2")) {
            admin().get("/v1/jobs/{type}/{id}", billing, id).then().body("state", equalTo("pending"));
        }
    }

    @Test
    void aBatchWithOneItemOfAnotherTypeIsRefusedWhole() {
        String batch = "{\"jobs\":[{\"type\":\"" + email + "\",\"id\":\"batched\"},{\"type\":\"" + billing
                + "\",\"id\":\"batched\"}]}";
        forbidden(json(confined(), batch).post("/v1/jobs").then());
        admin().get("/v1/jobs/{type}/{id}", email, "batched").then().statusCode(404);
        admin().get("/v1/jobs/{type}/{id}", billing, "batched").then().statusCode(404);
        String lease = "{\"jobs\":[{\"type\":\"" + billing + "\",\"id\":\"invoice-1\",\"lease\":\"x\",\"outcome\":\"failed\"}]}";
        forbidden(json(confined(), lease).post("/v1/finish").then());
        String beat = "{\"jobs\":[{\"type\":\"" + billing + "\",\"id\":\"invoice-1\",\"lease\":\"x\"}]}";
        forbidden(json(confined(), beat).post("/v1/heartbeat").then());
    }

    @Test
    void dependenciesTellItNothingOfTheOtherTypesJobs() {
        // Naming the billing job in after is answered exactly as naming one that does not exist.
        String hidden = json(confined(), "{\"after\":[{\"type\":\"" + billing + "\",\"id\":\"invoice-1\"}]}")
                .put("/v1/jobs/{type}/{id}", email, "after-billing").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("after[0]")).extract().path("detail");
        String missing = json(confined(), "{\"after\":[{\"type\":\"" + billing + "\",\"id\":\"invoice-9\"}]}")
                .put("/v1/jobs/{type}/{id}", email, "after-billing").then().statusCode(400)
                .body("field", equalTo("after[0]")).extract().path("detail");
        assertEquals(missing.replace("invoice-9", "invoice-1"), hidden);
        String batch = "{\"jobs\":[{\"type\":\"" + email + "\",\"after\":[{\"type\":\"" + billing
                + "\",\"id\":\"invoice-1\"}]}]}";
        json(confined(), batch).post("/v1/jobs").then().statusCode(400).body("errors[0].index", equalTo(0))
                .body("errors[0].field", equalTo("jobs[0].after[0]"));
        admin().get("/v1/jobs/{type}/{id}", email, "after-billing").then().statusCode(404);

        // A job of its type that an admin made wait for the billing job shows it nothing of it...
        json(admin(), "{\"maxAttempts\":1}").put("/v1/jobs/{type}/{id}", billing, "invoice-3").then().statusCode(201);
        json(admin(), "{\"after\":[{\"type\":\"" + billing + "\",\"id\":\"invoice-3\"},{\"type\":\"" + email
                + "\",\"id\":\"welcome-1\"}]}").put("/v1/jobs/{type}/{id}", email, "after-both").then()
                .statusCode(201).body("waitingFor", hasSize(2));
        confined().get("/v1/jobs/{type}/{id}", email, "after-both").then().statusCode(200)
                .body("after.type", equalTo(List.of(email))).body("waitingFor.type", equalTo(List.of(email)));
        confined().get("/v1/jobs?type={type}&limit=1000", email).then().statusCode(200)
                .body("jobs.find { it.id == 'after-both' }.after.type", equalTo(List.of(email)));

        // ...nor, once the billing job fails and cancels it, of which job that was.
        String lease = json(admin(), "{\"types\":[\"" + billing + "\"],\"max\":10}").post("/v1/accept").then()
                .statusCode(200).extract().path("find { it.id == 'invoice-3' }.lease");
        json(admin(), "{\"lease\":\"" + lease + "\",\"outcome\":\"failed\"}")
                .post("/v1/jobs/{type}/{id}/finish", billing, "invoice-3").then().statusCode(200);
        resolver.runOnce();
        String error = confined().get("/v1/jobs/{type}/{id}", email, "after-both").then().statusCode(200)
                .body("result", equalTo("cancelled")).extract().path("lastError");
        assertTrue(!error.contains(billing) && !error.contains("invoice-3"), error);
        admin().get("/v1/jobs/{type}/{id}", email, "after-both").then()
                .body("lastError", org.hamcrest.Matchers.containsString("invoice-3"));
    }

    /** Its answers are narrowed ({@code ScopedJobs}); a hang-up must still reach the wait beneath. */
    @Test
    void aConfinedWorkerThatHangsUpLeavesTheWaiters() throws Exception {
        int waitingBefore = waits.waitingAccepts();
        String body = "{\"types\":[\"" + email + "-none\"],\"wait\":60000}";
        try (java.net.Socket socket = new java.net.Socket("localhost", io.restassured.RestAssured.port)) {
            java.io.OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/accept HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Authorization: Bearer " + TokensProfile.EMAIL + "\r\nContent-Length: " + body.length()
                    + "\r\n\r\n" + body).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            out.flush();
            WaitsTest.awaitCondition(() -> waits.waitingAccepts() > waitingBefore);
        }
        WaitsTest.awaitCondition(() -> waits.waitingAccepts() == waitingBefore);
    }

    private static void acceptedOnlyEmail(ValidatableResponse response) {
        int status = response.extract().statusCode();
        assertTrue(status == 200 || status == 204, "accept answered " + status);
        if (status == 200) {
            List<String> types = response.extract().path("type");
            assertTrue(types.stream().allMatch(t -> t.startsWith("email")), types.toString());
        }
    }

    private static void forbidden(ValidatableResponse response) {
        response.statusCode(403).contentType("application/problem+json")
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/forbidden"));
    }

    private static RequestSpecification json(RequestSpecification request, String body) {
        return request.contentType(ContentType.JSON).body(body);
    }

    private static RequestSpecification confined() {
        return given().auth().oauth2(TokensProfile.EMAIL);
    }

    private static RequestSpecification admin() {
        return given().auth().oauth2(TokensProfile.ADMIN);
    }
}
