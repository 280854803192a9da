package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** One group floods a type; another group's few jobs still go out at once (docspell's fairness). */
@QuarkusTest
class NoisyNeighbourTest {

    @Test
    void aFloodingGroupDoesNotDelayASmallOne() {
        String type = "tenant-work-" + UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < 200; i++) {
            json("{\"group\":\"flood\"}").put("/v1/jobs/{type}/{id}", type, "flood-" + i).then().statusCode(201);
        }
        for (int i = 0; i < 5; i++) {
            json("{\"group\":\"quiet\"}").put("/v1/jobs/{type}/{id}", type, "quiet-" + i).then().statusCode(201);
        }
        int quiet = 0;
        for (int i = 0; i < 10; i++) {
            String group = json("{\"types\":[\"" + type + "\"]}").post("/v1/accept").then().statusCode(200)
                    .extract().path("[0].group");
            if ("quiet".equals(group)) {
                quiet++;
            }
        }
        assertEquals(5, quiet, "all five quiet jobs within the next ten accepts");
    }
}
