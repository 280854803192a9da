package io.jobfoundry.kv;

import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.records.JobKeys;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the engine's keys and records cost to encode: every store statement carries a key built
 * with {@link TupleWriter}, and a job's record is rewritten by its create, accept and finish, on
 * the store's one committer thread. The elements are the shapes the engine writes: a type name,
 * a generated job id, the default group, lease and origin tokens, a worker name, small integers.
 *
 * <p>{@code bench/jmh.sh TupleWriterBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TupleWriterBenchmark {

    private final String type = "email";
    private final String id = "01KB5QX3M2N7G8Z4T6W9Y0C1D2";
    private final String lease = "lB3x9QmZt7Vw2KpR5sYn8A";
    private final String origin = "oT4k8PzXq2Lm6NvB1cWd9E";
    private final String worker = "worker-host-17";
    private final long now = 1_795_800_000_000L;

    /** A job's record key, as the engine builds it. */
    @Benchmark
    public byte[] recordKey() {
        return JobKeys.job(type, id);
    }

    /** A ready-index key (type, group, class, time, id), as the engine builds it. */
    @Benchmark
    public byte[] readyKey() {
        return JobKeys.ready(type, "", Priority.HIGH, false, now, id);
    }

    /** The strings and numbers of a running job's record (RecordFormat's shape; it is not public). */
    @Benchmark
    public byte[] recordLike() {
        return TupleWriter.withCapacity(64).add(1).add(2).add("").add(0).add(now).add(now).add(now)
                .add((String) null).add(0).add(25).add((String) null).add(worker).add(3).add(lease).add(origin)
                .add(now).pack();
    }
}
