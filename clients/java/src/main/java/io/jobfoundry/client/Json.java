package io.jobfoundry.client;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Reading the service's JSON by hand: no reflection, and members added to the API later do no harm. */
final class Json {

    // BigDecimal keeps job data's numbers as written, so data handed back to the service is unchanged.
    // Job data is the application's own classes: the Jackson modules on its class path (jackson-datatype-jsr310
    // for java.time, jdk8, Kotlin, ...) are registered as its own mapper would have them, and times are written
    // as ISO-8601 text, the service's own time format, not as numbers no reader can tell from a count.
    static final ObjectMapper MAPPER = new ObjectMapper().findAndRegisterModules()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private Json() {
    }

    static JsonNode parse(byte[] body) throws IOException {
        return MAPPER.readTree(body);
    }

    static byte[] write(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new JobfoundryException("cannot write JSON", e);
        }
    }

    static <T> T convert(JsonNode node, Class<T> type) {
        try {
            return MAPPER.treeToValue(node, type);
        } catch (IOException e) {
            throw new JobfoundryException("cannot read the job's data as " + type.getName(), e);
        }
    }

    static JsonNode toNode(Object value) {
        try {
            return MAPPER.valueToTree(value);
        } catch (IllegalArgumentException e) {
            throw new JobfoundryException("a " + value.getClass().getName() + " cannot be written as JSON: "
                    + e.getMessage(), e);
        }
    }

    /**
     * A value a handler gave as a job's data, written as JSON where the handler can be told: the service takes
     * only an object (or null), and a value written later, on a worker's own thread, would fail there, far from
     * the code that gave it.
     *
     * @param what what the value is, for the message ("the handler's result")
     * @throws JobfoundryException naming the value's class if it cannot be job data
     */
    static JsonNode jobData(Object value, String what) {
        JsonNode node;
        try {
            node = MAPPER.valueToTree(value);
        } catch (IllegalArgumentException e) {
            throw new JobfoundryException(what + " (a " + value.getClass().getName() + ") cannot be written as JSON: "
                    + e.getMessage(), e);
        }
        if (node != null && !node.isObject() && !node.isNull()) {
            throw new JobfoundryException(what + " (a " + value.getClass().getName()
                    + ") must be written as a JSON object, not as " + node.getNodeType().name().toLowerCase());
        }
        return node;
    }

    static Job job(JsonNode n) {
        if (n == null || !n.isObject()) {
            throw new JobfoundryException("expected a job object, got " + n);
        }
        JsonNode data = n.get("data");
        return new Job(text(n, "type"), text(n, "id"), JobState.of(text(n, "state")), JobResult.of(text(n, "result")),
                data == null || data.isNull() ? null : data, text(n, "group"), Priority.of(text(n, "priority")),
                time(n, "scheduledAt"), time(n, "createdAt"), time(n, "updatedAt"), time(n, "startedAt"),
                time(n, "finishedAt"), text(n, "repeat"), n.path("attempt").asInt(), n.path("maxAttempts").asInt(),
                text(n, "lastError"), n.path("resubmit").asBoolean(), text(n, "worker"), refs(n, "after"),
                "run".equals(text(n, "afterFailure")) ? AfterFailure.RUN : AfterFailure.CANCEL, refs(n, "waitingFor"),
                n);
    }

    // A service older than dependencies sends neither member: no dependencies.
    private static List<JobRef> refs(JsonNode n, String name) {
        List<JobRef> refs = new ArrayList<>();
        for (JsonNode ref : n.path(name)) {
            refs.add(new JobRef(text(ref, "type"), text(ref, "id")));
        }
        return List.copyOf(refs);
    }

    static List<LeasedJob> leasedJobs(JsonNode array) {
        List<LeasedJob> jobs = new ArrayList<>();
        for (JsonNode n : array) {
            jobs.add(new LeasedJob(job(n), text(n, "lease")));
        }
        return jobs;
    }

    static TypeInfo type(JsonNode n) {
        BigDecimal seconds = n.path("activityTimeout").decimalValue();
        return new TypeInfo(text(n, "type"), Duration.ofMillis(seconds.movePointRight(3).longValue()),
                n.path("maxAttempts").asInt(), concurrency(n.get("concurrency")), rateLimit(n.get("rateLimit")), n);
    }

    // Absent (a service older than limits) or null: no limit.
    private static Concurrency concurrency(JsonNode n) {
        if (n == null || !n.isObject()) {
            return Concurrency.UNLIMITED;
        }
        return new Concurrency(whole(n.get("max")), whole(n.get("perGroup")));
    }

    private static Integer whole(JsonNode n) {
        return n == null || n.isNull() ? null : n.asInt();
    }

    private static RateLimit rateLimit(JsonNode n) {
        if (n == null || !n.isObject()) {
            return null;
        }
        return new RateLimit(n.path("count").asInt(),
                Duration.ofMillis(n.path("seconds").decimalValue().movePointRight(3).longValue()),
                n.path("perGroup").asBoolean());
    }

    static String text(JsonNode n, String name) {
        JsonNode value = n.get(name);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Instant time(JsonNode n, String name) {
        String text = text(n, name);
        return text == null ? null : Instant.parse(text);
    }
}
