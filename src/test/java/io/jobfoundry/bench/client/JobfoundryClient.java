package io.jobfoundry.bench.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobfoundry.bench.http.HttpAnswer;
import io.jobfoundry.bench.http.HttpConnection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The calls of Jobfoundry's REST API that the bench makes, over one connection. Paths are built
 * without percent-encoding: the bench names its types itself and ids are the service's own
 * URL-safe ones.
 */
public final class JobfoundryClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpConnection connection;

    public JobfoundryClient(HttpConnection connection) {
        this.connection = connection;
    }

    /** {@code POST /v1/jobs/{type}} with a job body such as {@code {"data":{"t":1}}}. */
    public void create(String type, String body) throws IOException {
        connection.send("POST", "/v1/jobs/" + type, body).expect("create", 201);
    }

    /**
     * {@code POST /v1/jobs}: creates one job of {@code type} per stamp in one call (one store
     * transaction), each as {@link #stampedBody} would; throws unless every item answered 201.
     */
    public void createBatch(String type, long[] createdNanos) throws IOException {
        StringBuilder body = new StringBuilder(32 + createdNanos.length * (type.length() + 48)).append("{\"jobs\":[");
        for (int i = 0; i < createdNanos.length; i++) {
            body.append(i == 0 ? "" : ",").append("{\"type\":\"").append(type).append("\",\"data\":{\"t\":")
                    .append(createdNanos[i]).append("}}");
        }
        HttpAnswer answer = connection.send("POST", "/v1/jobs", body.append("]}").toString()).expect("batch create", 200);
        expectEach(JSON.readTree(answer.body()).path("jobs"), createdNanos.length, 201, "batch create", answer);
    }

    /**
     * {@code POST /v1/finish}: finishes the jobs as succeeded in one call; false when any item
     * answered a halt (its lease was lost), as {@link #finish} does for one.
     */
    public boolean finishBatch(List<Accepted> jobs) throws IOException {
        StringBuilder body = new StringBuilder(32 + jobs.size() * 160).append("{\"jobs\":[");
        for (int i = 0; i < jobs.size(); i++) {
            Accepted job = jobs.get(i);
            body.append(i == 0 ? "" : ",").append("{\"type\":\"").append(job.type()).append("\",\"id\":\"").append(job.id())
                    .append("\",\"lease\":\"").append(job.lease()).append("\",\"outcome\":\"succeeded\"}");
        }
        HttpAnswer answer = connection.send("POST", "/v1/finish", body.append("]}").toString()).expect("batch finish", 200);
        JsonNode results = JSON.readTree(answer.body()).path("results");
        if (results.size() != jobs.size()) {
            throw new IllegalStateException("batch finish answered " + results.size() + " results for " + jobs.size()
                    + " jobs: " + answer.text());
        }
        for (JsonNode result : results) {
            int status = result.path("status").asInt();
            if (status == 409) {
                return false;
            }
            if (status != 200) {
                throw new IllegalStateException("batch finish item answered " + status + ": " + result);
            }
        }
        return true;
    }

    /** Throws unless {@code items} are {@code count} objects each with {@code status}: a failed item must stop a run. */
    private static void expectEach(JsonNode items, int count, int status, String call, HttpAnswer answer) {
        if (items.size() != count) {
            throw new IllegalStateException(call + " answered " + items.size() + " items for " + count + ": " + answer.text());
        }
        for (JsonNode item : items) {
            if (item.path("status").asInt() != status) {
                throw new IllegalStateException(call + " item answered " + item.path("status").asInt() + ": " + item);
            }
        }
    }

    /** A job body whose data carries the creation time that receipt latency is measured from. */
    public static String stampedBody(long createdNanos, String group) {
        String data = "{\"data\":{\"t\":" + createdNanos + "}";
        return group == null ? data + "}" : data + ",\"group\":\"" + group + "\"}";
    }

    /** {@code POST /v1/accept} for one type; an empty list when nothing was due within the wait. */
    public List<Accepted> accept(String type, int max, int waitMillis, String worker) throws IOException {
        HttpAnswer answer = connection.send("POST", "/v1/accept", "{\"types\":[\"" + type + "\"],\"max\":" + max
                + ",\"wait\":" + waitMillis + ",\"worker\":\"" + worker + "\"}").expect("accept", 200, 204);
        if (answer.status() == 204) {
            return List.of();
        }
        JsonNode jobs = JSON.readTree(answer.body());
        List<Accepted> accepted = new ArrayList<>(jobs.size());
        for (JsonNode job : jobs) {
            accepted.add(new Accepted(job.path("type").asText(), job.path("id").asText(), job.path("lease").asText(),
                    job.path("group").asText(), job.path("attempt").asInt(), job.path("data")));
        }
        return accepted;
    }

    /** Finishes a job as succeeded; false when the service answered a halt (the lease was lost). */
    public boolean finish(Accepted job) throws IOException {
        HttpAnswer answer = connection.send("POST", "/v1/jobs/" + job.type() + "/" + job.id() + "/finish",
                "{\"lease\":\"" + job.lease() + "\",\"outcome\":\"succeeded\"}").expect("finish", 200, 409);
        return answer.status() == 200;
    }

    /** {@code PUT /v1/types/{type}} with the settings given (e.g. {@code {"activityTimeout":2}}). */
    public void configureType(String type, String settings) throws IOException {
        connection.send("PUT", "/v1/types/" + type, settings).expect("configure type", 200);
    }

    /** {@code POST /v1/types/{type}/pause}: accepts hand out none of its jobs until it is resumed. */
    public void pause(String type) throws IOException {
        connection.send("POST", "/v1/types/" + type + "/pause", null).expect("pause", 200);
    }

    public void resume(String type) throws IOException {
        connection.send("POST", "/v1/types/" + type + "/resume", null).expect("resume", 200);
    }

    /** {@code GET /v1/types/{type}}: the type's counts, e.g. {@code counts.pending}. */
    public JsonNode type(String type) throws IOException {
        return JSON.readTree(connection.send("GET", "/v1/types/" + type, null).expect("get type", 200).body());
    }

    /** {@code GET /q/metrics} as text, or null when the service exposes no metrics. */
    public String metrics() throws IOException {
        HttpAnswer answer = connection.send("GET", "/q/metrics", null);
        return answer.status() == 200 ? answer.text() : null;
    }

    @Override
    public void close() {
        connection.close();
    }
}
