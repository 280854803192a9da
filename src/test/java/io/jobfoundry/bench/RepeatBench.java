package io.jobfoundry.bench;

import io.jobfoundry.repeat.Repeat;
import io.jobfoundry.repeat.RepeatParser;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntToLongFunction;

/**
 * Throughput of repeat parsing and evaluation, in expressions per second on one thread, after a
 * warm-up; {@code seconds} (default 5) one-second rounds are measured per operation. Not a test.
 *
 * <pre>./mvnw -B -q -Pbench test-compile exec:exec -Dexec.executable=java \
 *     -Dexec.args="-cp %classpath io.jobfoundry.bench.RepeatBench [seconds]"</pre>
 *
 * (The {@code bench} profile fixes exec:java's main class to the {@code Bench} dispatcher, so
 * {@code -Dexec.mainClass} does not reach this class through exec:java.)
 */
public final class RepeatBench {

    private static final List<String> BEDROCK = List.of(
            "HOURLY",
            "daily",
            "FINISHED, +1 HOUR",
            "scheduled, + 15 minutes",
            "SCHEDULED, +1 MONTH",
            "STARTED, +1.5 MONTHS, -0.25 DAYS",
            "FINISHED, +1 DAY, START OF DAY, +4 HOURS",
            "FINISHED, +1 DAY, WEEKDAY 1, START OF DAY, +6 HOURS",
            "SCHEDULED, START OF MONTH, +1 MONTH, -1 DAY, +23.5 HOURS",
            "FINISHED, +0.0015 SECONDS, +2 YEARS");
    // Reported apart: cron-utils is two orders of magnitude slower than the Bedrock syntax.
    private static final List<String> CRON = List.of("CRON */15 * * * *", "CRON 0 6 * * MON-FRI", "CRON 30 2 1,15 * *");

    private static final Instant[] BASES = {Instant.parse("2026-11-21T13:00:00.123Z"), Instant.parse("2016-01-31T10:00:00Z"),
            Instant.parse("2024-02-29T23:59:59.999Z"), Instant.parse("1999-12-31T12:00:00Z")};

    private RepeatBench() {
    }

    public static void main(String[] args) {
        int warmupSeconds = 2;
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        System.out.printf(Locale.ROOT, "RepeatBench: Java %s, %d cores, one thread, warm-up %d s, median of %d x 1 s%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors(), warmupSeconds, rounds);
        measure("Bedrock syntax (" + BEDROCK.size() + " expressions)", BEDROCK, warmupSeconds, rounds);
        measure("cron (" + CRON.size() + " expressions)", CRON, warmupSeconds, rounds);
    }

    private static void measure(String title, List<String> expressions, int warmupSeconds, int rounds) {
        String[] texts = expressions.toArray(String[]::new);
        Repeat[] parsed = Arrays.stream(texts).map(RepeatParser::parse).toArray(Repeat[]::new);
        System.out.println(title);
        report("parse", i -> RepeatParser.parse(texts[i % texts.length]).hashCode(), warmupSeconds, rounds);
        report("next (pre-parsed)", i -> {
            Instant base = BASES[i % BASES.length];
            return parsed[i % parsed.length].next(base, base, base).toEpochMilli();
        }, warmupSeconds, rounds);
        report("parse + next", i -> {
            Instant base = BASES[i % BASES.length];
            return RepeatParser.parse(texts[i % texts.length]).next(base, base, base).toEpochMilli();
        }, warmupSeconds, rounds);
    }

    private static void report(String name, IntToLongFunction operation, int warmupSeconds, int rounds) {
        run(operation, warmupSeconds * 1_000_000_000L);
        List<Double> perSecond = new ArrayList<>(rounds);
        long sink = 0;
        for (int r = 0; r < rounds; r++) {
            long[] result = run(operation, 1_000_000_000L);
            perSecond.add(result[0] * 1e9 / result[1]);
            sink ^= result[2];
        }
        perSecond.sort(null);
        System.out.printf(Locale.ROOT, "  %-18s median %,12.0f /s   min %,12.0f /s   max %,12.0f /s   (sink %x)%n", name,
                perSecond.get(rounds / 2), perSecond.get(0), perSecond.get(rounds - 1), sink & 0xff);
    }

    /** {operations, nanoseconds, sink}; the sink keeps the JIT from discarding the work. */
    private static long[] run(IntToLongFunction operation, long nanos) {
        long sink = 0;
        int i = 0;
        long start = System.nanoTime();
        long elapsed;
        do {
            // Batches of 1024 keep the clock reads out of the measurement.
            for (int end = i + 1024; i < end; i++) {
                sink += operation.applyAsLong(i);
            }
            elapsed = System.nanoTime() - start;
        } while (elapsed < nanos);
        return new long[] {i, elapsed, sink};
    }
}
