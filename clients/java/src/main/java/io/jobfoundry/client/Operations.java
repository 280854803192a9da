package io.jobfoundry.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The operator's calls ({@link JobfoundryClient#operations()}): job listings, every type with its counts, pausing,
 * resuming and deleting a type, its fairness groups, and bulk actions. The reads (listings, types, groups) need
 * the {@code viewer} role, pause, resume, deletion and bulk {@code admin}, for the types the token may see. Thread-safe, like
 * the client it comes from.
 */
public final class Operations {

    /** The page {@link #allJobs(JobFilter)} asks for: a job carries its data, up to 64 KiB of it. */
    static final int DEFAULT_PAGE = 100;
    /** How much longer than a call's timeout a bulk action may take, per job it may act on. */
    private static final Duration BULK_TIME_PER_JOB = Duration.ofMillis(10);

    private final Transport transport;

    Operations(Transport transport) {
        this.transport = transport;
    }

    /**
     * One page of jobs ({@code GET /v1/jobs}), in (type, id) order.
     *
     * @param filter the jobs to list; its type may be a glob, or {@code null} for every type
     * @param limit 1–1000 jobs at most
     * @param cursor {@code null} for the first page, else the previous page's {@link JobPage#next()}
     * @return the page
     */
    public JobPage jobs(JobFilter filter, int limit, String cursor) {
        Query query = new Query("/v1/jobs").add("type", filter.type())
                .add("state", filter.state() == null ? null : filter.state().wireName())
                .add("result", filter.result() == null ? null : filter.result().wireName())
                .add("group", filter.group()).add("limit", Integer.toString(limit)).add("cursor", cursor);
        return page(query);
    }

    private JobPage page(Query query) {
        JsonNode page = get(query.toString());
        List<Job> jobs = new ArrayList<>();
        for (JsonNode job : page.path("jobs")) {
            jobs.add(Json.job(job));
        }
        return new JobPage(List.copyOf(jobs), Json.text(page, "next"));
    }

    /**
     * One page of a type's finished jobs, the latest finished first ({@code GET /v1/jobs/{type}?order=recent}):
     * where the latest failures are, e.g. {@code recentlyFinished("email", JobResult.FAILED, null, 20, null)}. A
     * page filtered by group may hold fewer than {@code limit} jobs, even none, while its next is not {@code null}.
     *
     * @param type the type's name (not a glob)
     * @param result only the jobs that finished so, or {@code null} for every result
     * @param group only the jobs of this fairness group ({@code ""}: the default one), or {@code null} for every group
     * @param limit 1–1000 jobs at most
     * @param cursor {@code null} for the first page, else the previous page's {@link JobPage#next()} of this order
     * @return the page
     */
    public JobPage recentlyFinished(String type, JobResult result, String group, int limit, String cursor) {
        return page(new Query("/v1/jobs/" + Paths.segment(type)).add("order", "recent")
                .add("result", result == null ? null : result.wireName()).add("group", group)
                .add("limit", Integer.toString(limit)).add("cursor", cursor));
    }

    /**
     * Every job the filter matches, fetched {@value #DEFAULT_PAGE} at a time as the stream is read: a listing of a
     * busy queue sees each job at most once, and may miss those added behind the cursor meanwhile.
     *
     * @param filter the jobs to list
     * @return the jobs, in (type, id) order
     */
    public Stream<Job> allJobs(JobFilter filter) {
        return allJobs(filter, DEFAULT_PAGE);
    }

    /**
     * {@link #allJobs(JobFilter)}, fetched {@code pageSize} at a time.
     *
     * @param filter the jobs to list
     * @param pageSize 1–1000 jobs per request
     * @return the jobs, in (type, id) order
     */
    public Stream<Job> allJobs(JobFilter filter, int pageSize) {
        Iterator<Job> jobs = new Iterator<>() {
            private Iterator<Job> page = List.<Job>of().iterator();
            private String cursor;
            private boolean last;

            @Override
            public boolean hasNext() {
                // A filtered page may be empty while more follow.
                while (!page.hasNext() && !last) {
                    JobPage next = jobs(filter, pageSize, cursor);
                    page = next.jobs().iterator();
                    cursor = next.next();
                    last = cursor == null;
                }
                return page.hasNext();
            }

            @Override
            public Job next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return page.next();
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(jobs, Spliterator.ORDERED | Spliterator.NONNULL),
                false);
    }

    /**
     * Every type the service knows (used or configured) with its settings and counts ({@code GET /v1/types}).
     *
     * @return the types, in name order
     */
    public List<TypeInfo> types() {
        List<TypeInfo> types = new ArrayList<>();
        for (JsonNode type : get("/v1/types").path("types")) {
            types.add(Json.type(type));
        }
        return List.copyOf(types);
    }

    /**
     * Pauses a type: it hands out no job until resumed (blocked accepts keep waiting); everything else goes on. A
     * type not used yet is created, paused: mind the spelling.
     *
     * @param type the type
     * @return the type as it is now ({@link TypeInfo#paused()})
     */
    public TypeInfo pause(String type) {
        return Json.type(post(Paths.type(type) + "/pause", Json.MAPPER.createObjectNode()));
    }

    /**
     * Resumes a paused type: waiting accepts get its due jobs at once.
     *
     * @param type the type
     * @return the type as it is now
     */
    public TypeInfo resume(String type) {
        return Json.type(post(Paths.type(type) + "/resume", Json.MAPPER.createObjectNode()));
    }

    /**
     * Deletes a type no job uses ({@code DELETE /v1/types/{type}}): its settings, pause and counts go, and it leaves
     * {@link #types()}; its next job registers it again with the defaults. For a type misspelt in a {@link #pause}
     * or a configuration, or one retired once its jobs are removed ({@link #bulk}).
     *
     * @param type the type
     * @return {@code true} if it was deleted, {@code false} if the service knows no such type
     * @throws ProblemException with status 409 ({@code type-in-use}) while any job of the type exists, finished ones
     *     kept by retention included
     */
    public boolean deleteType(String type) {
        // Repeated after a lost answer, a deletion that took effect answers 404: false, as for a job's removal.
        Transport.Answer answer = transport.send("DELETE", Paths.type(type), null, true, Duration.ZERO);
        if (answer.notFound()) {
            return false;
        }
        answer.orThrow();
        return true;
    }

    /**
     * One page of a type's fairness groups with pending or running jobs ({@code GET /v1/types/{type}/groups}).
     *
     * @param type the type
     * @param limit 1–1000 groups at most
     * @param cursor {@code null} for the first page, else the previous page's {@link GroupPage#next()}
     * @return the page
     */
    public GroupPage groups(String type, int limit, String cursor) {
        JsonNode page = get(new Query(Paths.type(type) + "/groups").add("limit", Integer.toString(limit))
                .add("cursor", cursor).toString());
        List<FairnessGroup> groups = new ArrayList<>();
        for (JsonNode g : page.path("groups")) {
            groups.add(new FairnessGroup(Json.text(g, "group"), g.path("pending").asLong(), g.path("due").asLong(),
                    g.path("running").asLong()));
        }
        return new GroupPage(List.copyOf(groups), Json.text(page, "next"));
    }

    /**
     * Cancels, retries or removes every job a filter matches ({@code POST /v1/bulk}), each as the single call
     * does it, 100 jobs per transaction: not atomic as a whole. A repeat lists the matching jobs again and may act
     * on up to {@code limit} more (the next pending ones, for a cancel), so a bulk action is retried only when the
     * connection could not be made; after a failure, look at what it did before running it again.
     *
     * @param action what to do
     * @param filter which jobs; it must name a type (or a glob)
     * @param limit 1–10000 matching jobs at most
     * @return how many matched, and how many changed
     * @throws IllegalArgumentException if the filter names no type
     */
    public BulkResult bulk(BulkAction action, JobFilter filter, int limit) {
        if (filter.type() == null) {
            throw new IllegalArgumentException("a bulk action names its type (or a glob): JobFilter.type(...)");
        }
        ObjectNode body = Json.MAPPER.createObjectNode().put("action", action.wireName()).put("limit", limit);
        ObjectNode match = body.putObject("filter").put("type", filter.type());
        if (filter.state() != null) {
            match.put("state", filter.state().wireName());
        }
        if (filter.result() != null) {
            match.put("result", filter.result().wireName());
        }
        if (filter.group() != null) {
            match.put("group", filter.group());
        }
        // It takes longer the more jobs it acts on: the call's timeout grows with its limit.
        JsonNode answer = transport.send("POST", "/v1/bulk", body, false, BULK_TIME_PER_JOB.multipliedBy(limit))
                .orThrow().body();
        return new BulkResult(answer.path("matched").asLong(), answer.path("changed").asLong());
    }

    /**
     * Who the service takes the caller for ({@code GET /v1/me}): a script's check of its token before it acts.
     * Any valid token may call it.
     *
     * @return the token's name, effective roles and types
     */
    public Identity me() {
        JsonNode me = get("/v1/me");
        return new Identity(Json.text(me, "name"), strings(me.path("roles")),
                me.path("types").isArray() ? strings(me.path("types")) : null);
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        for (JsonNode value : array) {
            values.add(value.asText());
        }
        return List.copyOf(values);
    }

    private JsonNode get(String path) {
        return transport.send("GET", path, null, true, Duration.ZERO).orThrow().body();
    }

    // Pause and resume may be repeated without changing their effect.
    private JsonNode post(String path, JsonNode body) {
        return transport.send("POST", path, body, true, Duration.ZERO).orThrow().body();
    }

    /** A path with its query parameters, each value percent-encoded; absent values are left out. */
    private static final class Query {
        private final StringBuilder text;
        private char separator = '?';

        Query(String path) {
            this.text = new StringBuilder(path);
        }

        Query add(String name, String value) {
            if (value != null) {
                text.append(separator).append(name).append('=').append(Paths.segment(value));
                separator = '&';
            }
            return this;
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }
}
