package io.jobfoundry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.jobfoundry.jobs.model.Change;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
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

    /**
     * Data is copied as written by two routes, the bytes without their whitespace where no string has
     * an escape and a token-by-token copy otherwise: on random documents of both kinds (whitespace
     * everywhere, escapes, characters of one to four bytes, numbers in every spelling) the text is
     * what a Jackson copy of the tokens writes, numbers as their text.
     */
    @Test
    void dataIsTheTokensAsWrittenWithOrWithoutEscapes() throws Exception {
        SplittableRandom random = new SplittableRandom(20261127);
        for (int i = 0; i < 3_000; i++) {
            StringBuilder data = new StringBuilder();
            randomObject(random, data, 0);
            String body = "{ \"id\" : \"x\" ,\n \"data\" :" + data + " }";
            assertEquals(copiedByTokens(data.toString()), parse(body).jsonObject("data").value(), body);
        }
    }

    @Test
    void dataWithBytesThatAreNotUtf8IsNotAcceptedAltered() {
        // An encoded surrogate (ED A0 80): decoding it as UTF-8 would quietly make it U+FFFD.
        byte[] body = {'{', '"', 'd', 'a', 't', 'a', '"', ':', '{', '"', 's', '"', ':', '"', (byte) 0xED, (byte) 0xA0,
            (byte) 0x80, '"', '}', '}'};
        assertThrows(InvalidInputException.class, () -> JsonBody.parse(body).jsonObject("data"));
    }

    private static String copiedByTokens(String json) throws Exception {
        JsonMapper mapper = JsonMapper.builder().build();
        StringWriter out = new StringWriter();
        try (JsonParser parser = mapper.createParser(json); JsonGenerator generator = mapper.createGenerator(out)) {
            while (parser.nextToken() != null) {
                if (parser.currentToken().isNumeric()) {
                    generator.writeNumber(parser.getText());
                } else {
                    generator.copyCurrentEvent(parser);
                }
            }
        }
        return out.toString();
    }

    private static void randomObject(SplittableRandom random, StringBuilder out, int depth) {
        out.append(space(random)).append('{');
        int members = random.nextInt(depth < 2 ? 5 : 2);
        for (int m = 0; m < members; m++) {
            out.append(m == 0 ? "" : ",").append(space(random)).append(randomString(random, m)).append(space(random))
                    .append(':').append(space(random));
            switch (random.nextInt(depth < 2 ? 6 : 4)) {
                case 0 -> out.append(randomString(random, -1));
                case 1 -> out.append(List.of("0", "-0", "1.50", "1e400", "-2.5E-7", "12345678901234567890123", "7")
                        .get(random.nextInt(7)));
                case 2 -> out.append(List.of("true", "false", "null").get(random.nextInt(3)));
                case 3 -> out.append('[').append(space(random)).append(randomString(random, -1)).append(',')
                        .append(space(random)).append(random.nextInt(100)).append(space(random)).append(']');
                default -> randomObject(random, out, depth + 1);
            }
            out.append(space(random));
        }
        out.append('}').append(space(random));
    }

    /** Unique per member index (the body reader refuses duplicate names); -1 for any string. */
    private static String randomString(SplittableRandom random, int member) {
        String[] pieces = {"a", "Z", " ", "é", "€", "😀", "\\\"", "\\\\", "\\/", "\\u0041", "\\n",
            "\\ud83d\\ude00", "\\u00e9", "{", "]", ":", ","};
        StringBuilder text = new StringBuilder("\"");
        if (member >= 0) {
            text.append('m').append(member);
        }
        boolean escapes = random.nextBoolean();
        for (int i = random.nextInt(6); i > 0; i--) {
            String piece = pieces[random.nextInt(pieces.length)];
            if (escapes || !piece.startsWith("\\")) {
                text.append(piece);
            }
        }
        return text.append('"').toString();
    }

    private static String space(SplittableRandom random) {
        return List.of("", "", " ", "\n", "\t ", "\r\n  ").get(random.nextInt(6));
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
