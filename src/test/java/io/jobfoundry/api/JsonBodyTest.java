package io.jobfoundry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.Change;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonBodyTest {

    private static JsonBody parse(String json) {
        return JsonBody.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anAbsentMemberIsKeptAndAnExplicitNullIsAChange() {
        JsonBody body = parse("{\"data\":null}");
        Change<String> data = body.jsonObject("data");
        assertTrue(data.given());
        assertNull(data.value());
        assertFalse(body.jsonObject("other").given());
        assertFalse(body.nullableString("repeat").given());
        assertFalse(JsonBody.parse(new byte[0]).has("data"));
        assertFalse(parse("  \n ").has("data"));
    }

    @Test
    void dataIsStoredAsCompactJsonKeepingNumbersAsWritten() {
        String text = parse("{\"data\": { \"a\" : [1, 2.50, 1e400, -0.0, 12345678901234567890123],\n \"é\":\"😀\"}}")
                .jsonObject("data").value();
        // Exact decimals: no rounding, no Infinity; only the sign of a zero is lost (BigDecimal has no -0).
        assertEquals("{\"a\":[1,2.50,1E+400,0.0,12345678901234567890123],\"é\":\"😀\"}", text);
    }

    @Test
    void numbersAreCheckedWithoutExpandingThem() {
        JsonBody body = parse("{\"n\":3.0,\"big\":1e999999999,\"tiny\":1e-999999999,\"s\":0.0015,\"w\":100}");
        assertEquals(3, body.integer("n", 1, 10).orElseThrow());
        assertThrows(InvalidInputException.class, () -> body.integer("big", 1, 10));
        assertThrows(InvalidInputException.class, () -> body.integer("tiny", 0, 10));
        assertThrows(InvalidInputException.class, () -> body.seconds("big", Duration.ofDays(1)));
        assertThrows(InvalidInputException.class, () -> body.seconds("s", Duration.ofDays(1)));
        assertEquals(Duration.ofMillis(100), body.millis("w", Duration.ofSeconds(1)).orElseThrow());
        assertThrows(InvalidInputException.class, () -> body.millis("big", Duration.ofSeconds(1)));
    }

    @Test
    void nestedObjectsNameTheirMembersWithAPath() {
        JsonBody backoff = parse("{\"backoff\":{\"base\":\"x\"}}").object("backoff").orElseThrow();
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> backoff.seconds("base", Duration.ofDays(1)));
        assertEquals("backoff.base", e.field());
        InvalidInputException unknown = assertThrows(InvalidInputException.class,
                () -> parse("{\"backoff\":{\"min\":1}}").object("backoff").orElseThrow().allow("base", "max"));
        assertEquals("backoff.min", unknown.field());
    }

    @Test
    void listsAreCheckedEntryByEntry() {
        assertEquals(List.of("a", "b*"), parse("{\"t\":[\"a\",\"b*\"]}").strings("t").orElseThrow());
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> parse("{\"t\":[\"a\",2]}").strings("t"));
        assertEquals("each entry of t must be a string, not 2", e.getMessage());
    }
}
