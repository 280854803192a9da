package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The batch calls over HTTP: answers in the items' order, every invalid item named, halts per item. */
@QuarkusTest
class BatchResourceTest {

    private static final String PROBLEM = "application/problem+json";

    @Test
    void aBatchCreateAnswersEachItemInOrder() {
        String type = Api.type("batch");
        Api.put(type, "existing", "{}").statusCode(201);
        json("{\"jobs\":[{\"type\":\"" + type + "\",\"data\":{\"n\":1.50}},"
                + "{\"type\":\"" + type + "\",\"id\":\"existing\",\"priority\":\"high\"},"
                + "{\"type\":\"" + type + "\",\"id\":\"new\",\"group\":\"g\"}]}")
                .post("/v1/jobs").then().statusCode(200).contentType("application/json")
                .body("jobs", hasSize(3))
                .body("jobs[0].status", equalTo(201)).body("jobs[0].job.id", notNullValue())
                .body("jobs[1].status", equalTo(200)).body("jobs[1].job.priority", equalTo("high"))
                .body("jobs[2].status", equalTo(201)).body("jobs[2].job.group", equalTo("g"));
        given().get("/v1/types/{type}", type).then().body("counts.due", equalTo(3));
        // The data of an item is kept as written, as a single create keeps it.
        String id = given().get("/v1/jobs/{type}?limit=10", type).then().extract().path("jobs[0].id");
        given().get("/v1/jobs/{type}/{id}", type, id).then().body(containsString("\"n\":1.50"));
    }

    @Test
    void everyInvalidItemIsNamedAndNothingIsCreated() {
        String type = Api.type("batch-bad");
        json("{\"jobs\":[{\"type\":\"" + type + "\",\"id\":\"fine\"},"
                + "{\"type\":\"bad type\"},"
                + "{\"type\":\"" + type + "\",\"repeat\":\"SCHEDULED\"},"
                + "{\"type\":\"" + type + "\",\"colour\":\"red\"},"
                + "{\"type\":\"" + type + "\",\"id\":\"fine\"}]}")
                .post("/v1/jobs").then().statusCode(400).contentType(PROBLEM)
                .body("errors", hasSize(4))
                .body("errors[0].index", equalTo(1)).body("errors[0].field", equalTo("jobs[1].type"))
                .body("errors[1].index", equalTo(2)).body("errors[1].field", equalTo("jobs[2].repeat"))
                .body("errors[2].index", equalTo(3)).body("errors[2].field", equalTo("jobs[3].colour"))
                .body("errors[3].index", equalTo(4)).body("errors[3].detail", containsString("at most once"));
        Api.get(type, "fine").statusCode(404);
    }

    /** Each member at fault is named within its item, whichever check refused it. */
    @Test
    void aRefusedMemberIsNamedWithItsItem() {
        String type = Api.type("batch-members");
        json("{\"jobs\":[{\"type\":\"" + type + "\"},{\"type\":\"" + type + "\",\"priority\":\"urgent\"},"
                + "{\"type\":\"" + type + "\",\"afterFailure\":\"skip\"}]}")
                .post("/v1/jobs").then().statusCode(400).contentType(PROBLEM).body("errors", hasSize(2))
                .body("errors[0].index", equalTo(1)).body("errors[0].field", equalTo("jobs[1].priority"))
                .body("errors[0].detail", containsString("jobs[1].priority is \"high\" or \"low\""))
                .body("errors[1].index", equalTo(2)).body("errors[1].field", equalTo("jobs[2].afterFailure"));
        json("{\"jobs\":[{\"type\":\"" + type + "\",\"id\":\"a\",\"lease\":\"x\",\"outcome\":\"done\"}]}")
                .post("/v1/finish").then().statusCode(400).body("errors[0].field", equalTo("jobs[0].outcome"));
        Api.get(type, "a").statusCode(404);
    }

    /** A conflict found as the batch runs names its item, as the refusals found before it do; nothing is created. */
    @Test
    void aConflictingItemIsNamedAndNothingIsCreated() {
        String type = Api.type("batch-conflict");
        Api.put(type, "dep", "{}").statusCode(201);
        Api.put(type, "runs", "{}").statusCode(201);
        // Two jobs are due: take both, so that "runs" is running whichever comes first.
        Api.acceptOne(type);
        Api.acceptOne(type);
        json("{\"jobs\":[{\"type\":\"" + type + "\",\"id\":\"new\"},{\"type\":\"" + type + "\",\"id\":\"runs\","
                + "\"after\":[{\"type\":\"" + type + "\",\"id\":\"dep\"}]}]}")
                .post("/v1/jobs").then().statusCode(409).contentType(PROBLEM)
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/conflict"))
                .body("index", equalTo(1)).body("field", equalTo("jobs[1].after")).body("state", equalTo("running"))
                .body("detail", containsString("jobs[1]: after changes only while the job is pending or finished"));
        Api.get(type, "new").statusCode(404);
    }

    @Test
    void aBatchMustHoldOneToAThousandObjects() {
        json("{}").post("/v1/jobs").then().statusCode(400).body("field", equalTo("jobs"));
        json("{\"jobs\":[]}").post("/v1/finish").then().statusCode(400).body("field", equalTo("jobs"));
        json("{\"jobs\":[1]}").post("/v1/heartbeat").then().statusCode(400).body("errors", nullValue())
                .body("field", equalTo("jobs[0]"));
        StringBuilder many = new StringBuilder("{\"jobs\":[");
        for (int i = 0; i <= 1000; i++) {
            many.append(i == 0 ? "" : ",").append("{\"type\":\"t\"}");
        }
        json(many.append("]}").toString()).post("/v1/jobs").then().statusCode(400)
                .body("detail", containsString("1 to 1000"));
    }

    @Test
    void finishesAreIndependentAndAHaltAnswersItsReason() {
        String type = Api.type("batch-finish");
        Api.put(type, "a", "{}").statusCode(201);
        String leaseA = Api.acceptOne(type);
        Api.put(type, "b", "{}").statusCode(201);
        String leaseB = Api.acceptOne(type);
        given().delete("/v1/jobs/{type}/{id}", type, "b").then().statusCode(204);
        json("{\"jobs\":[{\"type\":\"" + type + "\",\"id\":\"a\",\"lease\":\"" + leaseA
                + "\",\"outcome\":\"succeeded\",\"data\":{\"sent\":true}},"
                + "{\"type\":\"" + type + "\",\"id\":\"b\",\"lease\":\"" + leaseB + "\",\"outcome\":\"succeeded\"}]}")
                .post("/v1/finish").then().statusCode(200)
                .body("results[0].status", equalTo(200)).body("results[0].job.result", equalTo("succeeded"))
                .body("results[0].job.data.sent", equalTo(true))
                .body("results[1].status", equalTo(409)).body("results[1].reason", equalTo("removed"))
                .body("results[0].keySet()", equalTo(Set.of("status", "job")))
                .body("results[1].keySet()", equalTo(Set.of("status", "reason")));
    }

    @Test
    void heartbeatsRenewEachLeaseAndReportProgress() {
        String type = Api.type("batch-beat");
        Api.put(type, "a", "{}").statusCode(201);
        String lease = Api.acceptOne(type);
        json("{\"jobs\":[{\"type\":\"" + type + "\",\"id\":\"a\",\"lease\":\"" + lease + "\",\"data\":{\"p\":50}},"
                + "{\"type\":\"" + type + "\",\"id\":\"never\",\"lease\":\"x\"}]}")
                .post("/v1/heartbeat").then().statusCode(200)
                .body("results[0].status", equalTo(200)).body("results[0].job.data.p", equalTo(50))
                .body("results[1].status", equalTo(409)).body("results[1].reason", equalTo("removed"));
        json("{\"jobs\":[{\"type\":\"" + type + "\",\"id\":\"a\"}]}").post("/v1/heartbeat").then().statusCode(400)
                .body("errors[0].field", equalTo("jobs[0].lease"));
    }
}
