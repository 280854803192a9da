package io.jobfoundry.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.model.Change;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Each answer as the finish the contract names for it. */
class PushVerdictTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

    private static PushVerdict answered(int status, String retryAfter, String body) {
        return PushVerdict.answered(status, retryAfter, "application/json", body.getBytes(StandardCharsets.UTF_8), NOW);
    }

    /** Only an answer declared JSON becomes data, as only a request body declared JSON is read. */
    @Test
    void onlyAnAnswerDeclaredJsonBecomesTheData() {
        byte[] object = "{\"message\":\"ok\"}".getBytes(StandardCharsets.UTF_8);
        for (String json : new String[] {"application/json", "Application/JSON; charset=utf-8", "application/vnd.acme+json"}) {
            assertEquals(Change.to("{\"message\":\"ok\"}"), PushVerdict.answered(200, null, json, object, NOW).data(), json);
        }
        for (String other : new String[] {null, "text/plain", "text/html; charset=utf-8", "application/jsonl", "text/json+x"}) {
            PushVerdict verdict = PushVerdict.answered(200, null, other, object, NOW);
            assertTrue(verdict.succeeded(), other);
            assertEquals(Change.keep(), verdict.data(), other);
        }
    }

    @Test
    void a2xxSucceedsAndOnlyAJsonObjectBecomesTheData() {
        PushVerdict ok = answered(200, null, " {\"n\": 1,\n \"s\": \"a b\"} ");
        assertTrue(ok.succeeded());
        assertEquals(Change.to("{\"n\":1,\"s\":\"a b\"}"), ok.data(), "compact, as data sent to the API is kept");
        assertEquals("2xx", ok.outcome());
        assertEquals(Change.keep(), answered(204, null, "").data());
        assertEquals(Change.keep(), answered(200, null, "[1]").data());
        assertEquals(Change.keep(), answered(200, null, "done").data());
        assertEquals(Change.keep(), answered(200, null, "{\"n\":1} trailing").data(), "not one JSON value");
    }

    /** Data a worker is handed must be data it can send back: an object the API would refuse is no data. */
    @Test
    void anObjectTheApiWouldRefuseLeavesTheDataAsItWas() {
        for (String refused : new String[] {"{\"a\":1,\"a\":2}", "{\"a\":1e2147483648}", "{\"a\":\"\\ud800\"}",
                "{\"\\udc00\":1}", "{\"a\":[\"x\\ud800\"]}"}) {
            PushVerdict verdict = answered(200, null, refused);
            assertTrue(verdict.succeeded());
            assertEquals(Change.keep(), verdict.data(), refused);
        }
        byte[] notUtf8 = {'{', '"', 'a', '"', ':', '"', (byte) 0xFF, (byte) 0xFE, '"', '}'};
        assertEquals(Change.keep(), PushVerdict.answered(200, null, "application/json", notUtf8, NOW).data());
        assertEquals(Change.to("{\"n\":1.50,\"big\":1E+400,\"pair\":\"\uD83D\uDE00\"}"),
                answered(200, null, "{\"n\":1.50,\"big\":1e400,\"pair\":\"\\ud83d\\ude00\"}").data(),
                "numbers keep their value and scale; an escaped pair is one character");
    }

    @Test
    void throttlingWithRetryAfterIsDueNoSoonerThanThat() {
        PushVerdict seconds = answered(429, "120", "");
        assertFalse(seconds.succeeded());
        assertEquals(NOW.plusSeconds(120), seconds.notBefore());
        assertEquals("push target answered 429; Retry-After 120", seconds.error());
        PushVerdict date = answered(503, "Sat, 21 Nov 2026 10:05:00 GMT", "busy");
        assertEquals(NOW.plusSeconds(300), date.notBefore());
        assertEquals("push target answered 503; Retry-After Sat, 21 Nov 2026 10:05:00 GMT: busy", date.error());
        assertEquals(NOW.plus(Duration.ofDays(365)), answered(429, "99999999999999", "").notBefore(), "capped");
        assertNull(answered(429, null, "").notBefore());
        assertNull(answered(429, "soon", "").notBefore());
        assertNull(answered(429, "Sat, 21 Nov 2026 09:00:00 GMT", "").notBefore(), "a past time is no bound");
        assertNull(answered(500, "120", "").notBefore(), "only 429 and 503 are told to wait");
    }

    /** A recipient must read all three forms of an HTTP date (RFC 9110, 5.6.7). */
    @Test
    void retryAfterTakesTheObsoleteDateFormsToo() {
        assertEquals(NOW.plusSeconds(900), answered(503, "Saturday, 21-Nov-26 10:15:00 GMT", "").notBefore(), "RFC 850");
        assertEquals(NOW.plusSeconds(900), answered(503, "Sat Nov 21 10:15:00 2026", "").notBefore(), "asctime");
        assertEquals(NOW.plusSeconds(900), answered(503, "Sat, 21 Nov 2026 10:15:00 GMT", "").notBefore());
        assertEquals(Instant.parse("1994-11-06T08:49:37Z"), PushVerdict.httpDate("Sunday, 06-Nov-94 08:49:37 GMT", NOW),
                "a two-digit year is the one within 50 years before now, not 2094");
        assertEquals(Instant.parse("1994-11-06T08:49:37Z"), PushVerdict.httpDate("Sun Nov  6 08:49:37 1994", NOW));
        assertNull(PushVerdict.httpDate("21/11/2026 10:15", NOW));
    }

    @Test
    void otherAnswersNameTheStatusAndTheStartOfTheBody() {
        assertEquals("push target answered 302 (redirects are not followed)", answered(302, null, "").error());
        assertEquals("3xx", answered(302, null, "").outcome());
        String long500 = answered(500, null, "x".repeat(500)).error();
        assertEquals("push target answered 500: " + "x".repeat(200) + "…", long500);
        // An emoji across the 200th character: cut before it, never through it.
        assertEquals("push target answered 500: " + "a".repeat(199) + "\uD83D\uDE00…",
                answered(500, null, "a".repeat(199) + "\uD83D\uDE00tail").error());
        assertEquals("4xx", answered(404, null, "").outcome());
        assertEquals("push target did not answer within 0.5 s", PushVerdict.timedOut(Duration.ofMillis(500)).error());
        assertEquals("push call failed: Connection refused",
                PushVerdict.unreachable(new java.net.ConnectException("Connection refused")).error());
    }
}
