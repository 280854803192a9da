package io.jobfoundry.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobfoundry.StrictJson;
import io.jobfoundry.Texts;
import io.jobfoundry.jobs.model.Change;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A request body: a JSON object read as a tree, so that an absent member ({@link Change#keep()})
 * is told apart from an explicit {@code null} ({@code Change.to(null)}). Every getter checks the
 * member's JSON type and answers {@link InvalidInputException} naming the member; unknown members
 * are refused by {@link #allow}. Strict JSON ({@link JsonReading}): no duplicate members, comments or trailing tokens.
 * Every number must be one Java's {@link BigDecimal} can hold: {@code 1e2147483648} is a 400, not a
 * 500.
 */
final class JsonBody {

    private final ObjectNode object;
    private final String prefix;
    /** The request body as sent (null for an empty one): {@link #jsonObject} copies numbers from it as written. */
    private final byte[] source;
    /** The members leading from the body to this object: none for the body itself. */
    private final List<String> path;

    private JsonBody(ObjectNode object, String prefix, byte[] source, List<String> path) {
        this.object = object;
        this.prefix = prefix;
        this.source = source;
        this.path = path;
    }

    static JsonBody empty() {
        return new JsonBody(StrictJson.MAPPER.createObjectNode(), "", null, List.of());
    }

    /** The body, which must be a JSON object; an empty body is an empty object. */
    static JsonBody parse(byte[] bytes) {
        JsonNode node = bytes == null || bytes.length == 0 ? null : JsonReading.read(bytes);
        if (node == null) {
            return empty(); // nothing, or only whitespace
        }
        if (!node.isObject()) {
            throw new InvalidInputException(null, "the body must be a JSON object, not " + kind(node));
        }
        return new JsonBody((ObjectNode) node, "", bytes, List.of());
    }

    /** Refuses members other than {@code known}. */
    JsonBody allow(String... known) {
        Set<String> allowed = Set.of(known);
        Iterator<String> names = object.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                String expected = known.length == 0 ? "this call takes no members"
                        : "expected " + String.join(", ", new TreeSet<>(allowed));
                throw new InvalidInputException(prefix + name, "unknown member " + Problems.printable(prefix + name)
                        + "; " + expected);
            }
        }
        return this;
    }

    boolean has(String name) {
        return object.has(name);
    }

    /** True if the member is given as {@code null} (which turns a nested setting off). */
    boolean isNull(String name) {
        return object.has(name) && object.get(name).isNull();
    }

    /** The member as errors name it: {@code jobs[3].priority} for a batch item's. */
    String field(String name) {
        return prefix + name;
    }

    /** A member that must be a string when present; {@code null} is refused. */
    Optional<String> string(String name) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            throw wrongType(name, "a string", node);
        }
        return Optional.of(checkedText(name, node.textValue()));
    }

    /** A member that is a string or {@code null}. */
    Change<String> nullableString(String name) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Change.keep();
        }
        if (node.isNull()) {
            return Change.to(null);
        }
        if (!node.isTextual()) {
            throw wrongType(name, "a string or null", node);
        }
        return Change.to(checkedText(name, node.textValue()));
    }

    String requiredString(String name) {
        return string(name).orElseThrow(() -> new InvalidInputException(field(name), field(name) + " is required"));
    }

    /** A whole number within {@code min..max}. */
    Optional<Integer> integer(String name, int min, int max) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isNumber() || !isWhole(node)) {
            throw wrongType(name, "a whole number", node);
        }
        BigDecimal value = node.decimalValue();
        if (value.compareTo(BigDecimal.valueOf(min)) < 0 || value.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new InvalidInputException(field(name), field(name) + " must be within " + min + ".." + max);
        }
        return Optional.of(value.intValueExact());
    }

    /** {@link #integer}, or {@code null} given for the member (which {@link Change#to} carries). */
    Change<Integer> integerOrNull(String name, int min, int max) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Change.keep();
        }
        return node.isNull() ? Change.to(null) : Change.to(integer(name, min, max).orElseThrow());
    }

    /** A member that must be {@code true} or {@code false} when present; {@code null} is refused. */
    Optional<Boolean> bool(String name) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isBoolean()) {
            throw wrongType(name, "true or false", node);
        }
        return Optional.of(node.booleanValue());
    }

    /** Milliseconds as a whole number within {@code 0..max}. */
    Optional<Duration> millis(String name, Duration max) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isNumber() || !isWhole(node)) {
            throw wrongType(name, "a whole number of milliseconds", node);
        }
        BigDecimal value = node.decimalValue();
        if (value.signum() < 0 || value.compareTo(BigDecimal.valueOf(max.toMillis())) > 0) {
            throw new InvalidInputException(field(name), field(name) + " must be within 0.." + max.toMillis()
                    + " milliseconds");
        }
        return Optional.of(Duration.ofMillis(value.longValueExact()));
    }

    /** Seconds as a number, fractions to the millisecond; within {@code least..max} (whole seconds both). */
    Optional<Duration> seconds(String name, Duration least, Duration max) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isNumber()) {
            throw wrongType(name, "a number of seconds", node);
        }
        BigDecimal value = node.decimalValue();
        if (value.compareTo(BigDecimal.valueOf(least.toSeconds())) < 0
                || value.compareTo(BigDecimal.valueOf(max.toSeconds())) > 0) {
            throw new InvalidInputException(field(name), field(name) + " must be within " + least.toSeconds() + ".."
                    + max.toSeconds() + " seconds (" + max.toDays() + (max.toDays() == 1 ? " day)" : " days)"));
        }
        BigDecimal millis = value.movePointRight(3);
        if (millis.stripTrailingZeros().scale() > 0) {
            throw new InvalidInputException(field(name), field(name) + " has more precision than milliseconds");
        }
        return Optional.of(Duration.ofMillis(millis.longValueExact()));
    }

    /** {@link #seconds}, or {@code null} given for the member (which {@link Change#to} carries). */
    Change<Duration> secondsOrNull(String name, Duration least, Duration max) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Change.keep();
        }
        return node.isNull() ? Change.to(null) : Change.to(seconds(name, least, max).orElseThrow());
    }

    /** A time (RFC 3339 text, Bedrock text, or whole seconds since the epoch); {@code null} is refused. */
    Optional<Instant> time(String name) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Optional.empty();
        }
        if (node.isTextual()) {
            return Optional.of(WireTimes.parse(field(name), node.textValue()));
        }
        if (node.isNumber()) {
            return Optional.of(WireTimes.ofEpochSeconds(field(name), node.decimalValue()));
        }
        throw wrongType(name, "a time (RFC 3339 text or seconds since the epoch)", node);
    }

    /** A time, where {@code null} means the same as leaving it out. */
    Optional<Instant> timeOrNull(String name) {
        JsonNode node = object.get(name);
        return node == null || node.isNull() ? Optional.empty() : time(name);
    }

    /**
     * A member that must be a JSON object or {@code null}, as compact JSON text whose numbers are
     * spelled as the client wrote them ({@code -0}, {@code 1.50}, {@code 1e400}): data goes back to
     * its worker exactly, and a worker echoing it can always send it again.
     */
    Change<String> jsonObject(String name) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Change.keep();
        }
        if (node.isNull()) {
            return Change.to(null);
        }
        if (!node.isObject()) {
            throw wrongType(name, "a JSON object or null", node);
        }
        String text = JsonSource.asWritten(source, path, name);
        if (Texts.hasLoneSurrogate(text)) {
            throw new InvalidInputException(field(name), field(name)
                    + " holds a string with an unpaired surrogate escape (\\uD800-\\uDFFF): not valid Unicode");
        }
        return Change.to(text);
    }

    /** An array of strings; {@code null} is refused. */
    Optional<List<String>> strings(String name) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isArray()) {
            throw wrongType(name, "an array of strings", node);
        }
        List<String> values = new ArrayList<>(node.size());
        for (JsonNode element : node) {
            if (!element.isTextual()) {
                throw new InvalidInputException(field(name), "each entry of " + field(name) + " must be a string, not "
                        + kind(element));
            }
            values.add(checkedText(name, element.textValue()));
        }
        return Optional.of(values);
    }

    /** An array of whole numbers within {@code min..max}; {@code null} is refused. */
    Optional<List<Integer>> integers(String name, int min, int max) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isArray()) {
            throw wrongType(name, "an array of whole numbers", node);
        }
        List<Integer> values = new ArrayList<>(node.size());
        for (JsonNode element : node) {
            if (!element.isNumber() || !isWhole(element)) {
                throw new InvalidInputException(field(name), "each entry of " + field(name)
                        + " must be a whole number, not " + kind(element));
            }
            BigDecimal value = element.decimalValue();
            if (value.compareTo(BigDecimal.valueOf(min)) < 0 || value.compareTo(BigDecimal.valueOf(max)) > 0) {
                throw new InvalidInputException(field(name), "each entry of " + field(name) + " must be within "
                        + min + ".." + max);
            }
            values.add(value.intValueExact());
        }
        return Optional.of(values);
    }

    /** A nested object, whose own members are named {@code name.member} in errors; {@code null} is refused. */
    Optional<JsonBody> object(String name) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isObject()) {
            throw wrongType(name, "a JSON object", node);
        }
        List<String> inner = new ArrayList<>(path);
        inner.add(name);
        return Optional.of(new JsonBody((ObjectNode) node, field(name) + ".", source, List.copyOf(inner)));
    }

    /**
     * An array of objects (a batch's items), each read as a body of its own whose members are named
     * {@code name[i].member} in errors; {@code null} is refused.
     */
    Optional<List<JsonBody>> objects(String name) {
        JsonNode node = object.get(name);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isArray()) {
            throw wrongType(name, "an array of JSON objects", node);
        }
        List<JsonBody> items = new ArrayList<>(node.size());
        List<byte[]> sent = null;
        for (int i = 0; i < node.size(); i++) {
            JsonNode element = node.get(i);
            String at = field(name) + "[" + i + "]";
            if (!element.isObject()) {
                throw new InvalidInputException(at, at + " must be a JSON object, not " + kind(element));
            }
            if (sent == null) {
                sent = JsonSource.elements(source, path, name);
            }
            items.add(new JsonBody((ObjectNode) element, at + ".", sent.get(i), List.of()));
        }
        return Optional.of(items);
    }

    /** Whether the number is a whole one, checked without expanding a huge exponent. */
    private static boolean isWhole(JsonNode node) {
        if (node.isIntegralNumber()) {
            return true;
        }
        BigDecimal value = node.decimalValue();
        return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
    }

    private String checkedText(String name, String text) {
        if (Texts.hasLoneSurrogate(text)) {
            throw new InvalidInputException(field(name), field(name)
                    + " has an unpaired surrogate escape (\\uD800-\\uDFFF): not valid Unicode");
        }
        return text;
    }

    private InvalidInputException wrongType(String name, String expected, JsonNode node) {
        return new InvalidInputException(field(name), field(name) + " must be " + expected + ", not " + kind(node));
    }

    private static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            case NUMBER -> Problems.printable(node.toString()).replace("'", "");
            case OBJECT -> "an object";
            case STRING -> "a string";
            default -> "a " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
