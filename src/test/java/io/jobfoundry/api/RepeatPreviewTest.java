package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code POST /v1/repeat/preview}. */
@QuarkusTest
class RepeatPreviewTest {

    @Test
    void previewNormalizesAndListsTheNextRuns() {
        json("""
                {"repeat":"scheduled, +1 month","scheduledAt":"2016-01-31 00:00:00","count":3}""")
                .post("/v1/repeat/preview").then().statusCode(200)
                .body("normalized", equalTo("SCHEDULED, +1 MONTH"))
                // SQLite's month overflow: 2016-01-31 +1 month is 2016-03-02.
                .body("next", equalTo(List.of("2016-03-02T00:00:00Z", "2016-04-02T00:00:00Z",
                        "2016-05-02T00:00:00Z")));
    }

    @Test
    void eachBaseReadsItsOwnTime() {
        json("""
                {"repeat":"STARTED, +1 HOUR","scheduledAt":0,"startedAt":"2026-01-01T10:00:00Z",
                 "finishedAt":"2026-01-01T12:00:00Z"}""")
                .post("/v1/repeat/preview").then().statusCode(200)
                .body("next", equalTo(List.of("2026-01-01T11:00:00Z")));
        json("{\"repeat\":\"daily\",\"finishedAt\":1767225600,\"count\":100}").post("/v1/repeat/preview").then()
                .statusCode(200).body("normalized", equalTo("FINISHED, +1 DAY")).body("next", hasSize(100))
                .body("next[0]", equalTo("2026-01-02T00:00:00Z"));
    }

    @Test
    void aCronRepeatReadsTheZoneItNames() {
        // Thursday 26 March 2026; Berlin moves to summer time on Sunday the 29th.
        json("""
                {"repeat":"cron cron_tz=europe/berlin 0 9 * * mon-fri","scheduledAt":"2026-03-26T12:00:00Z",
                 "finishedAt":"2026-03-26T12:00:00Z","count":3}""")
                .post("/v1/repeat/preview").then().statusCode(200)
                .body("normalized", equalTo("CRON TZ=Europe/Berlin 0 9 * * MON-FRI"))
                .body("next", equalTo(List.of("2026-03-27T08:00:00Z", "2026-03-30T07:00:00Z",
                        "2026-03-31T07:00:00Z")));
        json("{\"repeat\":\"CRON TZ=Mars/Olympus 0 9 * * *\"}").post("/v1/repeat/preview").then().statusCode(400)
                .body("field", equalTo("repeat")).body("detail", containsString("unknown time zone"))
                .body("detail", containsString("'Mars/Olympus'"));
    }

    /** A job keeps its repeat's zone, and waits for the first 09:00 on that zone's clock. */
    @Test
    void aJobWithAZonedCronWaitsForItsFirstSlotOnThatClock() {
        String type = Api.type("zoned-cron");
        String scheduledAt = Api.put(type, "report", "{\"repeat\":\"CRON TZ=Asia/Kolkata 0 9 * * *\"}")
                .statusCode(201).body("repeat", equalTo("CRON TZ=Asia/Kolkata 0 9 * * *"))
                .extract().path("scheduledAt");
        ZonedDateTime first = Instant.parse(scheduledAt).atZone(ZoneId.of("Asia/Kolkata"));
        assertEquals(LocalTime.of(9, 0), first.toLocalTime(), scheduledAt);
        assertTrue(first.toInstant().isAfter(Instant.now().minusSeconds(1)), scheduledAt);
        assertTrue(first.toInstant().isBefore(Instant.now().plus(Duration.ofDays(1))), scheduledAt);
    }

    @Test
    void aBadExpressionIs400NamingThePart() {
        json("{\"repeat\":\"FINISHED, +1 FORTNIGHT\"}").post("/v1/repeat/preview").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("repeat"))
                .body("detail", containsString("FORTNIGHT"));
        json("{\"repeat\":\"SCHEDULED, +1 YEAR\",\"scheduledAt\":\"9999-06-01T00:00:00Z\"}")
                .post("/v1/repeat/preview").then().statusCode(400).body("field", equalTo("repeat"))
                .body("detail", containsString("range"));
        json("{\"repeat\":\"hourly\",\"count\":101}").post("/v1/repeat/preview").then().statusCode(400)
                .body("field", equalTo("count"));
    }
}
