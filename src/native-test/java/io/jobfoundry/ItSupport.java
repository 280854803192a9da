package io.jobfoundry;

import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.HashMap;
import java.util.Map;

/** What the ITs against packaged services share: reading a type's every job, and load threads. */
final class ItSupport {

    private ItSupport() {
    }

    /** Every job of {@code type} on the service at {@code baseUri}, by id, through the listing's pages. */
    static Map<String, Map<String, Object>> listAll(String baseUri, String type) {
        Map<String, Map<String, Object>> jobs = new HashMap<>();
        String cursor = null;
        do {
            RequestSpecification request = RestAssured.given().baseUri(baseUri).queryParam("limit", 1000);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get("/v1/jobs/{type}", type).then().statusCode(200).extract().jsonPath();
            for (Map<String, Object> job : page.<Map<String, Object>>getList("jobs")) {
                jobs.put((String) job.get("id"), job);
            }
            cursor = page.getString("next");
        } while (cursor != null);
        return jobs;
    }

    /** {@code body} on a daemon thread, started: load that must not keep the test JVM alive. */
    static Thread daemon(Runnable body) {
        Thread thread = new Thread(body);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
