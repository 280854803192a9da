package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code concurrency} and {@code rateLimit} in a type's settings: set, shown, partly changed, lifted, refused. */
@QuarkusTest
class TypeLimitsResourceTest {

    private static ValidatableResponse put(String type, String body) {
        return json(body).put("/v1/types/{type}", type).then();
    }

    @Test
    void aNewTypeHasNoLimits() {
        String type = Api.type("limits-none");
        Api.put(type, "j", "{}").statusCode(201);
        given().get("/v1/types/{type}", type).then().statusCode(200)
                .body("concurrency.max", nullValue()).body("concurrency.perGroup", nullValue())
                .body("rateLimit", nullValue());
    }

    @Test
    void limitsAreSetShownChangedInPartAndLifted() {
        String type = Api.type("limits");
        put(type, """
                {"concurrency":{"max":10,"perGroup":2},"rateLimit":{"count":100,"seconds":1.5,"perGroup":true}}""")
                .statusCode(200).body("concurrency.max", equalTo(10)).body("concurrency.perGroup", equalTo(2))
                .body("rateLimit.count", equalTo(100)).body("rateLimit.seconds", equalTo(1.5f))
                .body("rateLimit.perGroup", equalTo(true));
        given().get("/v1/types/{type}", type).then().statusCode(200)
                .body("concurrency.max", equalTo(10)).body("rateLimit.count", equalTo(100));
        // Members left out keep their value; null lifts one limit.
        put(type, "{\"concurrency\":{\"max\":null},\"rateLimit\":{\"count\":5}}").statusCode(200)
                .body("concurrency.max", nullValue()).body("concurrency.perGroup", equalTo(2))
                .body("rateLimit.count", equalTo(5)).body("rateLimit.seconds", equalTo(1.5f))
                .body("rateLimit.perGroup", equalTo(true));
        put(type, "{\"maxAttempts\":3}").statusCode(200).body("concurrency.perGroup", equalTo(2))
                .body("rateLimit.count", equalTo(5));
        put(type, "{\"concurrency\":null,\"rateLimit\":null}").statusCode(200)
                .body("concurrency.max", nullValue()).body("concurrency.perGroup", nullValue())
                .body("rateLimit", nullValue());
    }

    @Test
    void aNewRateLimitNeedsCountAndSeconds() {
        String type = Api.type("limits-rate");
        put(type, "{\"rateLimit\":{\"count\":5}}").statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("rateLimit.seconds"));
        given().get("/v1/types/{type}", type).then().statusCode(404);
        put(type, "{\"rateLimit\":{\"count\":5,\"seconds\":60}}").statusCode(200).body("rateLimit.perGroup", equalTo(false));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "{\"concurrency\":{\"max\":0}}|concurrency.max|1..10000",
        "{\"concurrency\":{\"max\":10001}}|concurrency.max|1..10000",
        "{\"concurrency\":{\"perGroup\":1.5}}|concurrency.perGroup|whole number",
        "{\"concurrency\":{\"perGroup\":\"2\"}}|concurrency.perGroup|whole number",
        "{\"concurrency\":{\"total\":2}}|concurrency.total|expected max, perGroup",
        "{\"concurrency\":5}|concurrency|JSON object",
        "{\"rateLimit\":{\"count\":0,\"seconds\":1}}|rateLimit.count|1..10000",
        "{\"rateLimit\":{\"count\":1,\"seconds\":0.5}}|rateLimit.seconds|1..86400",
        "{\"rateLimit\":{\"count\":1,\"seconds\":86401}}|rateLimit.seconds|1..86400 seconds (1 day)",
        "{\"rateLimit\":{\"count\":1,\"seconds\":1.0001}}|rateLimit.seconds|milliseconds",
        "{\"rateLimit\":{\"count\":1,\"seconds\":1,\"perGroup\":\"yes\"}}|rateLimit.perGroup|true or false",
        "{\"rateLimit\":[1,60]}|rateLimit|JSON object",
    })
    void badLimitsAre400AndChangeNothing(String body, String field, String detail) {
        String type = Api.type("limits-bad");
        put(type, "{\"concurrency\":{\"max\":4},\"rateLimit\":{\"count\":7,\"seconds\":30}}").statusCode(200);
        put(type, body).statusCode(400).contentType("application/problem+json").body("field", equalTo(field))
                .body("detail", containsString(detail));
        given().get("/v1/types/{type}", type).then().statusCode(200)
                .body("concurrency.max", equalTo(4)).body("concurrency.perGroup", nullValue())
                .body("rateLimit.count", equalTo(7)).body("rateLimit.seconds", equalTo(30));
    }

    @Test
    void aLimitedTypeHandsOutNoMoreOverHttp() {
        String type = Api.type("limits-http");
        put(type, "{\"concurrency\":{\"max\":1}}").statusCode(200);
        Api.put(type, "a", "{}").statusCode(201);
        Api.put(type, "b", "{}").statusCode(201);
        json("{\"types\":[\"" + type + "\"],\"max\":5}").post("/v1/accept").then().statusCode(200)
                .body("size()", equalTo(1));
        json("{\"types\":[\"" + type + "\"],\"max\":5}").post("/v1/accept").then().statusCode(204);
    }
}
