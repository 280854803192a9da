package io.jobfoundry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.model.Change;
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
        String text = parse("{\"data\": { \"a\" : [1, 2.50, 1e400, -0.0, -0, 1E+5, 12345678901234567890123],\n"
                + " \"é\":\"😀\"}}").jsonObject("data").value();
        // No rounding, no Infinity, no respelling: every number is the text the client sent.
        assertEquals("{\"a\":[1,2.50,1e400,-0.0,-0,1E+5,12345678901234567890123],\"é\":\"😀\"}", text);
    }

    @Test
    void dataAcceptedOnceIsAcceptedAgain() {
        // The largest exponent a decimal holds; BigDecimal would print it back as 1.0E+2147483648, which it
        // cannot read: a worker echoing its data would have been refused.
        String data = parse("{\"data\":{\"a\":10e2147483647,\"b\":-1.5e-2147483646}}").jsonObject("data").value();
        assertEquals("{\"a\":10e2147483647,\"b\":-1.5e-2147483646}", data);
        assertEquals(data, parse("{\"data\":" + data + "}").jsonObject("data").value());
    }

    @Test
    void dataInsideANestedObjectIsCopiedFromItsOwnPlace() {
        JsonBody outer = parse("{\"data\":{\"x\":1},\"o\":{\"data\":{\"n\":2.0},\"p\":[1]}}");
        assertEquals("{\"n\":2.0}", outer.object("o").orElseThrow().jsonObject("data").value());
        assertEquals("{\"x\":1}", outer.jsonObject("data").value());
    }

    @Test
    void aNumberBeyondWhatADecimalHoldsIsRefusedNamingItsMember() {
        for (String number : List.of("1e2147483648", "1e-2147483649", "1e999999999999999999999999999999",
                "123456789e-9999999999999", "1e-2147483648", "1.5e-2147483647", "0e2147483648")) {
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> parse("{\"group\":\"g\",\n\"data\":{\"list\":[0, " + number + "]}}"), number);
            assertEquals("data", e.field(), number);
            assertEquals("the number at '/data/list/1' (line 2, column 20) is out of range: its exponent must lie "
                    + "within ±2147483647, also when reduced by the number of digits after its decimal point",
                    e.getMessage(), number);
        }
        assertEquals("maxAttempts", assertThrows(InvalidInputException.class,
                () -> parse("{\"maxAttempts\":1e2147483648}")).field());
    }

    @Test
    void theJsonReadersLimitsAreRefusalsSayingWhichLimit() {
        InvalidInputException number = assertThrows(InvalidInputException.class,
                () -> parse("{\"data\":{\"n\":" + "9".repeat(1001) + "}}"));
        assertTrue(number.getMessage().startsWith("the body exceeds a limit of the JSON reader: Number value length"),
                number.getMessage());
        InvalidInputException name = assertThrows(InvalidInputException.class,
                () -> parse("{\"data\":{\"" + "k".repeat(50_001) + "\":1}}"));
        assertTrue(name.getMessage().startsWith("the body exceeds a limit of the JSON reader: Name length"),
                name.getMessage());
    }

    @Test
    void numbersAreCheckedWithoutExpandingThem() {
        JsonBody body = parse("{\"n\":3.0,\"big\":1e999999999,\"tiny\":1e-999999999,\"s\":0.0015,\"w\":100}");
        assertEquals(3, body.integer("n", 1, 10).orElseThrow());
        assertThrows(InvalidInputException.class, () -> body.integer("big", 1, 10));
        assertThrows(InvalidInputException.class, () -> body.integer("tiny", 0, 10));
        assertThrows(InvalidInputException.class, () -> body.seconds("big", Duration.ZERO, Duration.ofDays(1)));
        assertThrows(InvalidInputException.class, () -> body.seconds("s", Duration.ZERO, Duration.ofDays(1)));
        assertEquals(Duration.ofMillis(100), body.millis("w", Duration.ofSeconds(1)).orElseThrow());
        assertThrows(InvalidInputException.class, () -> body.millis("big", Duration.ofSeconds(1)));
    }

    @Test
    void nestedObjectsNameTheirMembersWithAPath() {
        JsonBody backoff = parse("{\"backoff\":{\"base\":\"x\"}}").object("backoff").orElseThrow();
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> backoff.seconds("base", Duration.ZERO, Duration.ofDays(1)));
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
