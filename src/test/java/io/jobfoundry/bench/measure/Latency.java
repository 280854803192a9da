package io.jobfoundry.bench.measure;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * A latency distribution recorded from many threads, in microseconds from 1 µs to one hour with
 * three significant digits: HdrHistogram keeps every sample's percentile exact to 0.1% without
 * keeping the samples.
 */
public final class Latency {

    private static final long HIGHEST_MICROS = 3_600_000_000L;

    private final Histogram histogram = new ConcurrentHistogram(1, HIGHEST_MICROS, 3);

    public void recordNanos(long nanos) {
        recordMicros(nanos / 1_000);
    }

    public void recordMicros(long micros) {
        // Clock granularity can make a sample 0 or, across processes, a hair negative: count it as 1 µs.
        histogram.recordValue(Math.min(Math.max(micros, 1), HIGHEST_MICROS));
    }

    public Percentiles percentiles() {
        return Percentiles.of(histogram);
    }

    public long count() {
        return histogram.getTotalCount();
    }
}
