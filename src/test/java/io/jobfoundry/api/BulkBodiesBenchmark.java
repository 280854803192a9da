package io.jobfoundry.api;

import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.jobfoundry.jobs.model.AfterFailure;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.Priority;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The two ends of a bulk create on the event loop, per batch of 100: reading the items' data as
 * written ({@link JsonBody#jsonObject}, the copy that keeps numbers as the client spelled them), and
 * writing the 100 jobs of the answer ({@link JobDto#of}, its times, Jackson). The jobs are as one
 * transaction leaves them, created, scheduled and updated at its one time. {@code data} is the
 * comparison workload's ({@code {"t":<nanos>}}), or a larger object with nested members and
 * non-ASCII text ({@code text}), or the same with its text written with escapes ({@code escaped}).
 *
 * <p>{@code bench/jmh.sh BulkBodiesBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class BulkBodiesBenchmark {

    private static final int ITEMS = 100;

    @Param({"small", "text", "escaped"})
    String data;

    private byte[] body;
    private List<Job> jobs;
    private ObjectWriter writer;

    @Setup
    public void prepare() {
        StringBuilder request = new StringBuilder("{\"jobs\":[");
        List<Job> created = new ArrayList<>();
        Instant committed = Instant.parse("2026-11-27T15:04:05.123Z");
        for (int i = 0; i < ITEMS; i++) {
            String item = switch (data) {
                case "small" -> "{\"t\":" + (1_790_000_000_000_000_000L + i) + "}";
                case "text" -> "{ \"order\": " + i + ", \"customer\": {\"name\": \"Zoë Ølsen\", \"tier\":"
                        + " \"gold\"},\n  \"lines\": [{\"sku\": \"A-1\", \"qty\": 2, \"price\": 12.50}, {\"sku\":"
                        + " \"B-2\", \"qty\": 1, \"price\": 1e3}], \"note\": \"rush – call first\" }";
                default -> "{ \"order\": " + i + ", \"customer\": {\"name\": \"Zo\\u00eb \\u00d8lsen\", \"tier\":"
                        + " \"gold\"},\n  \"lines\": [{\"sku\": \"A-1\", \"qty\": 2, \"price\": 12.50}, {\"sku\":"
                        + " \"B\\/2\", \"qty\": 1, \"price\": 1e3}], \"note\": \"rush \\u2013 call first\" }";
            };
            request.append(i == 0 ? "" : ",").append("{\"type\":\"bench\",\"data\":").append(item).append('}');
            String stored = item.replace(" ", "").replace("\n", "");
            created.add(new Job("bench", "id-" + i, JobState.PENDING, null, stored, "", Priority.HIGH, committed,
                    committed, committed, null, null, null, 0, 3, null, false, null, 1, List.of(), List.of(),
                    AfterFailure.CANCEL, List.of(), null));
        }
        body = request.append("]}").toString().getBytes(StandardCharsets.UTF_8);
        jobs = created;
        writer = JsonMapper.builder().build().writer();
    }

    @Benchmark
    public List<String> readCreateData() {
        List<JsonBody> items = JsonBody.parse(body).objects("jobs").orElseThrow();
        List<String> read = new ArrayList<>(items.size());
        for (JsonBody item : items) {
            read.add(item.jsonObject("data").value());
        }
        return read;
    }

    @Benchmark
    public byte[] writeCreatedJobs() throws Exception {
        List<JobDto> answer = new ArrayList<>(jobs.size());
        for (Job job : jobs) {
            answer.add(JobDto.of(job));
        }
        return writer.writeValueAsBytes(answer);
    }
}
