package io.jobfoundry.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The Jobfoundry HTTP API: producer calls (create, put, batch create, get, waitFor, events, update, resubmit,
 * cancel, remove), type settings, the processor calls a {@link Worker} is built on (accept, heartbeat, finish,
 * singly and in batches), and the operator's calls ({@link #operations()}). Thread-safe; share one per service.
 *
 * <p>Calls that may be repeated without changing their effect are retried by the {@link RetryPolicy} after a
 * {@code 503} or a lost connection. {@link #put}, {@link #resubmit} and {@link #createBatch} send an {@code
 * Idempotency-Key} drawn for the call and the same with its repeats, so the service recognizes a repeat of a
 * call that took effect and does not run the job once more. {@link #create} and batches with items without an
 * id add a job each time they reach the service, so they are retried only when the connection could not be
 * made; give jobs your own ids ({@link #put}) where a duplicate matters. Refusals are thrown as {@link
 * ProblemException}.
 */
public final class JobfoundryClient {

    /** The longest wait the service grants a long poll (its default {@code jobfoundry.api.max-wait}). */
    static final Duration MAX_SERVER_WAIT = Duration.ofMinutes(5);
    /** Four of the service's keep-alive periods (its default {@code jobfoundry.api.events-keep-alive}, 15 s). */
    static final Duration DEFAULT_EVENTS_IDLE_TIMEOUT = Duration.ofSeconds(60);

    private final Transport transport;
    private final Operations operations;

    private JobfoundryClient(Transport transport) {
        this.transport = transport;
        this.operations = new Operations(transport);
    }

    /**
     * A client with default settings.
     *
     * @param baseUrl the service, e.g. {@code http://localhost:8080}
     * @return the client
     */
    public static JobfoundryClient create(String baseUrl) {
        return builder(baseUrl).build();
    }

    /**
     * A builder for a client with a token, a retry policy or an HTTP client of its own.
     *
     * @param baseUrl the service, e.g. {@code http://localhost:8080}
     * @return the builder
     */
    public static Builder builder(String baseUrl) {
        return new Builder(URI.create(baseUrl));
    }

    // ---- producer calls

    /**
     * Adds a job with a generated id ({@code POST /v1/jobs/{type}}).
     *
     * @param type the job's type
     * @param spec its members
     * @return the job as added
     */
    public Job create(String type, JobSpec spec) {
        return Json.job(transport.send("POST", "/v1/jobs/" + Paths.segment(type), spec.toJson(), false, Duration.ZERO)
                .orThrow().body());
    }

    /**
     * Adds or updates a job by its id ({@code PUT /v1/jobs/{type}/{id}}, couch_jobs' {@code add}): a new job is
     * pending; a pending one takes the members given; a running one runs again when it finishes; a finished one
     * runs again.
     *
     * @param type the job's type
     * @param id the job's id
     * @param spec its members
     * @return whether it was created, and the job
     */
    public Saved put(String type, String id, JobSpec spec) {
        Transport.Answer answer = transport.sendKeyed("PUT", Paths.job(type, id), spec.toJson()).orThrow();
        return new Saved(answer.status() == 201, Json.job(answer.body()));
    }

    /**
     * Adds or updates many jobs in one request and one store transaction ({@code POST /v1/jobs}). If any item is
     * invalid nothing is created and the {@link ProblemException} names them in {@link ProblemException#errors()}.
     *
     * @param jobs 1–1000 items; those with an id are PUTs, the others POSTs
     * @return one answer per item, in order
     */
    public List<Saved> createBatch(List<NewJob> jobs) {
        ArrayNode items = Json.MAPPER.createArrayNode();
        boolean idempotent = true;
        for (NewJob job : jobs) {
            ObjectNode item = job.spec().toJson();
            item.put("type", job.type());
            if (job.id() != null) {
                item.put("id", job.id());
            } else {
                idempotent = false;
            }
            items.add(item);
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.set("jobs", items);
        // Items with ids only: sent under a key (recognized when repeated). With an id-less item the service would
        // refuse a key, and a repeat could add that job twice.
        JsonNode answer = (idempotent ? transport.sendKeyed("POST", "/v1/jobs", body)
                : transport.send("POST", "/v1/jobs", body, false, Duration.ZERO)).orThrow().body();
        List<Saved> saved = new ArrayList<>();
        for (JsonNode item : answer.path("jobs")) {
            saved.add(new Saved(item.path("status").asInt() == 201, Json.job(item.get("job"))));
        }
        return saved;
    }

    /**
     * The next run times of a repeat expression ({@code POST /v1/repeat/preview}), counted from now: a check of an
     * expression before a job carries it.
     *
     * @param repeat the expression, e.g. {@code "SCHEDULED, +1 HOUR"}, {@code "DAILY"} or {@code "CRON 0 9 * * MON-FRI"}
     * @param count 1–100 run times
     * @return the canonical expression and its next run times
     * @throws ProblemException a {@code 400} naming the offending part of a bad expression
     */
    public RepeatPreview previewRepeat(String repeat, int count) {
        return previewRepeat(repeat, null, count);
    }

    /**
     * {@link #previewRepeat(String, int)}, counted from a given time, as if the run before had been scheduled,
     * started and finished then.
     *
     * @param repeat the expression
     * @param from the time to count from, or {@code null} for now
     * @param count 1–100 run times
     * @return the canonical expression and its next run times
     */
    public RepeatPreview previewRepeat(String repeat, Instant from, int count) {
        ObjectNode body = Json.MAPPER.createObjectNode().put("repeat", repeat).put("count", count);
        if (from != null) {
            body.put("scheduledAt", from.toString()).put("startedAt", from.toString()).put("finishedAt", from.toString());
        }
        // It changes nothing: safe to repeat.
        JsonNode answer = transport.send("POST", "/v1/repeat/preview", body, true, Duration.ZERO).orThrow().body();
        List<Instant> next = new ArrayList<>();
        for (JsonNode time : answer.path("next")) {
            next.add(Instant.parse(time.asText()));
        }
        return new RepeatPreview(Json.text(answer, "normalized"), List.copyOf(next));
    }

    /**
     * Reads a job.
     *
     * @param type the job's type
     * @param id the job's id
     * @return the job, or empty if the service says there is none
     * @throws ProblemException for a 404 that is not the service's own (a wrong base URL, a proxy)
     */
    public Optional<Job> get(String type, String id) {
        Transport.Answer answer = transport.send("GET", Paths.job(type, id), null, true, Duration.ZERO);
        if (answer.notFound()) {
            return Optional.empty();
        }
        return Optional.of(Json.job(answer.orThrow().body()));
    }

    /**
     * Waits until a job is in a state (couch_jobs' {@code wait}), without polling: the service answers as soon
     * as it is. Compare the answer's state to tell whether it got there before the timeout.
     *
     * @param type the job's type
     * @param id the job's id
     * @param state the state to wait for
     * @param timeout how long to wait at most
     * @return the job as it is when it reached the state, or when the timeout ended
     * @throws ProblemException with status 404 if the job does not exist or is removed meanwhile
     */
    public Job waitFor(String type, String id, JobState state, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            // Each attempt asks for what is left: a repeat after a lost connection must not wait the whole again.
            Job job = Json.job(transport.poll(Paths.job(type, id), () -> {
                Duration left = Duration.between(Instant.now(), deadline);
                Duration wait = left.isNegative() ? Duration.ZERO : left.compareTo(MAX_SERVER_WAIT) > 0 ? MAX_SERVER_WAIT : left;
                return new Transport.Poll(Paths.job(type, id) + "?waitFor=" + state.wireName() + "&timeout="
                        + wait.toMillis(), wait);
            }).orThrow().body());
            if (job.state() == state || !Instant.now().isBefore(deadline)) {
                return job;
            }
        }
    }

    /**
     * Follows a job's changes ({@code GET /v1/jobs/{type}/{id}/events}): first the job as it is, then each change
     * (a burst of changes comes as its latest state), then its removal, which ends the stream. The stream blocks
     * while it waits for the next event: read it on a thread of its own, and close it (from any thread) to stop
     * following, which ends it quietly. One that ends without the removal (the service restarted) may be opened
     * again, and starts with the job as it is then; one whose connection breaks, or stays silent for a minute
     * (the service's keep-alive prevents that), fails with a {@link JobfoundryException}.
     *
     * @param type the job's type
     * @param id the job's id
     * @return the events; close it to close the connection
     * @throws ProblemException with status 404 if there is no such job
     */
    public Stream<JobEvent> events(String type, String id) {
        return events(type, id, DEFAULT_EVENTS_IDLE_TIMEOUT);
    }

    /**
     * {@link #events(String, String)}, taking the connection for dead once its reader has waited {@code
     * idleTimeout} for a line (an event or a keep-alive).
     *
     * @param type the job's type
     * @param id the job's id
     * @param idleTimeout above zero, and longer than the service's {@code jobfoundry.api.events-keep-alive} (15 s
     *     by default)
     * @return the events; close it to close the connection
     * @throws IllegalArgumentException if {@code idleTimeout} is not above zero
     */
    public Stream<JobEvent> events(String type, String id, Duration idleTimeout) {
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout must be above zero, not " + idleTimeout);
        }
        return JobEvents.of(transport.lines(Paths.job(type, id) + "/events"), idleTimeout);
    }

    /**
     * Cancels a job: a pending one ends {@code cancelled} at once, a running one when its processor next calls
     * (which is halted), a finished one is unchanged.
     *
     * @param type the job's type
     * @param id the job's id
     * @return the job as it is now
     */
    public Job cancel(String type, String id) {
        return Json.job(transport.send("POST", Paths.job(type, id) + "/cancel", Json.MAPPER.createObjectNode(), true,
                Duration.ZERO).orThrow().body());
    }

    /**
     * Changes some of a job's members ({@code PATCH /v1/jobs/{type}/{id}}): {@code priority}, {@code repeat} and
     * {@code maxAttempts} of any job, and {@code scheduledAt}, {@code data} and {@code group} of a pending one;
     * members left out keep their value. Dependencies are not changed here ({@code after} is refused with a
     * {@code 400}): a {@link #put} of a pending job replaces them.
     *
     * @param type the job's type
     * @param id the job's id
     * @param changes the members to change, e.g. {@code JobSpec.empty().priority(Priority.HIGH)}
     * @return the job as it is now
     * @throws ProblemException 404 if there is no such job, 409 for the data of a running job
     */
    public Job update(String type, String id, JobSpec changes) {
        return Json.job(transport.send("PATCH", Paths.job(type, id), changes.toJson(), true, Duration.ZERO)
                .orThrow().body());
    }

    /**
     * Runs a job again (couch_jobs' {@code resubmit}): a finished one is pending again, a pending one takes the
     * new time, a running one runs again when its processor finishes it. Repeated after a {@code 503} under the
     * call's {@code Idempotency-Key}, which the service recognizes: a repeat never runs the job once more.
     *
     * @param type the job's type
     * @param id the job's id
     * @param scheduledAt when it is due, or {@code null} for now (a pending job keeps its time)
     * @return the job as it is now
     */
    public Job resubmit(String type, String id, Instant scheduledAt) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        if (scheduledAt != null) {
            body.put("scheduledAt", scheduledAt.toString());
        }
        return Json.job(transport.sendKeyed("POST", Paths.job(type, id) + "/resubmit", body).orThrow().body());
    }

    /**
     * Removes every trace of a job; its processor, if it runs, is halted.
     *
     * @param type the job's type
     * @param id the job's id
     * @return {@code true} if it was removed, {@code false} if the service says there was no such job
     * @throws ProblemException for a 404 that is not the service's own (a wrong base URL, a proxy)
     */
    public boolean remove(String type, String id) {
        Transport.Answer answer = transport.send("DELETE", Paths.job(type, id), null, true, Duration.ZERO);
        if (answer.notFound()) {
            return false;
        }
        answer.orThrow();
        return true;
    }

    // ---- types

    /**
     * A type's settings and counts.
     *
     * @param type the type
     * @return its settings, or empty for a type never used or configured
     */
    public Optional<TypeInfo> type(String type) {
        Transport.Answer answer = transport.send("GET", Paths.type(type), null, true, Duration.ZERO);
        if (answer.notFound()) {
            return Optional.empty();
        }
        return Optional.of(Json.type(answer.orThrow().body()));
    }

    /**
     * Changes a type's settings ({@code PUT /v1/types/{type}}); members left out keep their value.
     *
     * @param type the type
     * @param settings e.g. {@code Map.of("activityTimeout", 10, "maxAttempts", 3)}; durations in seconds; the
     *     limits as {@link Concurrency} and {@link RateLimit}, e.g. {@code Map.of("concurrency", Concurrency.max(5))}
     *     (a {@code null} {@code rateLimit}, in a map that takes one, lifts the rate limit)
     * @return the type as it is now
     */
    public TypeInfo configureType(String type, Map<String, ?> settings) {
        return Json.type(transport.send("PUT", Paths.type(type), Json.toNode(settings), true, Duration.ZERO)
                .orThrow().body());
    }

    /**
     * The operator's calls: job listings, every type, pause and resume, fairness groups, bulk actions.
     *
     * @return them, over this client's connection, token and retry policy
     */
    public Operations operations() {
        return operations;
    }

    // ---- processor calls

    /**
     * Takes up to {@code max} due jobs of the named types, each under a lease ({@code POST /v1/accept}).
     *
     * @param types type names or globs ({@code *}, {@code ?}); earlier names are served first
     * @param max 1–100
     * @param wait how long the service may wait for a job to become due (at most 5 minutes); zero answers at once
     * @param worker a label shown as the jobs' {@code worker}, or {@code null}
     * @return the jobs taken; empty if none was due within the wait
     */
    public List<LeasedJob> accept(List<String> types, int max, Duration wait, String worker) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        types.forEach(body.putArray("types")::add);
        body.put("max", max).put("wait", wait.toMillis());
        if (worker != null) {
            body.put("worker", worker);
        }
        // A repeated accept may leave a job its lost answer took running until its activity timeout, which
        // brings it back: a smaller cost than a worker that gives up on the first lost connection.
        Transport.Answer answer = transport.send("POST", "/v1/accept", body, true, wait).orThrow();
        return answer.status() == 204 || answer.body() == null ? List.of() : Json.leasedJobs(answer.body());
    }

    /**
     * Renews a job's activity timeout, optionally with progress data.
     *
     * @param heartbeat the job, its lease and optional data
     * @return the job as it is now ({@link Job#resubmit()} tells whether it will run again)
     * @throws HaltException when the processor must stop working on the job
     */
    public Job heartbeat(Heartbeat heartbeat) {
        ObjectNode body = Json.MAPPER.createObjectNode().put("lease", heartbeat.lease());
        putData(body, heartbeat.data());
        return Json.job(transport.send("POST", Paths.job(heartbeat.type(), heartbeat.id()) + "/heartbeat", body, true,
                Duration.ZERO).orThrow().body());
    }

    /**
     * Heartbeats for many jobs in one request ({@code POST /v1/heartbeat}).
     *
     * @param heartbeats 1–1000 items
     * @return one result per item, in order; a halted item does not stop the others
     */
    public List<ItemResult> heartbeatBatch(List<Heartbeat> heartbeats) {
        ArrayNode items = Json.MAPPER.createArrayNode();
        for (Heartbeat h : heartbeats) {
            putData(items.addObject().put("type", h.type()).put("id", h.id()).put("lease", h.lease()), h.data());
        }
        return batch("/v1/heartbeat", items);
    }

    /**
     * Finishes a job.
     *
     * @param finish the job, its lease, the outcome and optional data or error
     * @return the job as it is now
     * @throws HaltException when the lease is no longer the job's
     */
    public Job finish(Finish finish) {
        ObjectNode body = finishBody(Json.MAPPER.createObjectNode(), finish);
        return Json.job(transport.send("POST", Paths.job(finish.type(), finish.id()) + "/finish", body, true,
                Duration.ZERO).orThrow().body());
    }

    /**
     * Finishes many jobs in one request and one store transaction ({@code POST /v1/finish}).
     *
     * @param finishes 1–1000 items
     * @return one result per item, in order; a halted item does not stop the others
     */
    public List<ItemResult> finishBatch(List<Finish> finishes) {
        ArrayNode items = Json.MAPPER.createArrayNode();
        for (Finish f : finishes) {
            finishBody(items.addObject().put("type", f.type()).put("id", f.id()), f);
        }
        return batch("/v1/finish", items);
    }

    private List<ItemResult> batch(String path, ArrayNode items) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.set("jobs", items);
        JsonNode answer = transport.send("POST", path, body, true, Duration.ZERO).orThrow().body();
        List<ItemResult> results = new ArrayList<>();
        for (JsonNode r : answer.path("results")) {
            JsonNode job = r.get("job");
            results.add(new ItemResult(r.path("status").asInt(), job == null || job.isNull() ? null : Json.job(job),
                    Json.text(r, "reason")));
        }
        if (results.size() != items.size()) {
            throw new JobfoundryException(path + " answered " + results.size() + " results for " + items.size() + " items");
        }
        return results;
    }

    private static ObjectNode finishBody(ObjectNode body, Finish finish) {
        body.put("lease", finish.lease()).put("outcome", finish.outcome().wireName());
        putData(body, finish.data());
        if (finish.error() != null) {
            body.put("error", finish.error());
        }
        return body;
    }

    private static void putData(ObjectNode body, Object data) {
        if (data != null) {
            body.set("data", Json.toNode(data));
        }
    }

    /** Builds a {@link JobfoundryClient}. */
    public static final class Builder {

        private final URI baseUrl;
        private String token;
        private HttpClient httpClient;
        private RetryPolicy retryPolicy = RetryPolicy.defaults();
        private Duration requestTimeout = Duration.ofSeconds(30);

        private Builder(URI baseUrl) {
            this.baseUrl = Objects.requireNonNull(baseUrl);
        }

        /**
         * @param token sent as {@code Authorization: Bearer <token>} with every call; surrounding whitespace (the
         *     newline at the end of a secrets file) is dropped; {@link #build()} refuses any other character outside
         *     visible ASCII with a {@link JobfoundryException} that does not show the token
         * @return this builder
         */
        public Builder token(String token) {
            this.token = token;
            return this;
        }

        /**
         * @param policy how calls are repeated after a 503 or a lost connection
         * @return this builder
         */
        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = Objects.requireNonNull(policy);
            return this;
        }

        /**
         * @param timeout how long one call may take, beyond a long poll's own wait (default 30 s)
         * @return this builder
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = Objects.requireNonNull(timeout);
            return this;
        }

        /**
         * @param client the JDK HTTP client to use (for TLS settings, a proxy, an executor)
         * @return this builder
         */
        public Builder httpClient(HttpClient client) {
            this.httpClient = client;
            return this;
        }

        /** @return the client */
        public JobfoundryClient build() {
            // HTTP/1.1: the service speaks it, and h2c's upgrade dance costs a request. The direct executor
            // completes each answer on the client's selector thread instead of handing it to a pool thread:
            // half the CPU per call in the README's measurement. Safe here because every call is a blocking
            // send with an in-memory body handler; nothing of ours runs on that thread.
            HttpClient http = httpClient != null ? httpClient
                    : HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(Runnable::run)
                            .connectTimeout(Duration.ofSeconds(10)).build();
            return new JobfoundryClient(new Transport(baseUrl, http, bearer(token), retryPolicy, requestTimeout));
        }

        /**
         * The token as it can go in a header. A token read from a secrets file usually ends with a newline, which
         * is not part of it. Anything else outside visible ASCII would make the JDK refuse the header on every call
         * with a message that quotes it, so it is refused here, once, without showing it.
         */
        private static String bearer(String token) {
            if (token == null) {
                return null;
            }
            String stripped = token.strip();
            if (stripped.isEmpty()) {
                throw new JobfoundryException("the token is empty");
            }
            for (int i = 0; i < stripped.length(); i++) {
                char c = stripped.charAt(i);
                if (c < 0x21 || c > 0x7e) {
                    throw new JobfoundryException("the token holds a character that cannot be sent in an HTTP header"
                            + " (a control character, a space or a non-ASCII character) at position " + (i + 1)
                            + " of " + stripped.length() + "; check how it was read");
                }
            }
            return stripped;
        }
    }
}
