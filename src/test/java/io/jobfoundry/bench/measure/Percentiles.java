package io.jobfoundry.bench.measure;

import org.HdrHistogram.Histogram;

/** The figures a latency is reported by, in milliseconds. */
public record Percentiles(long count, double p50, double p95, double p99, double max) {

    static Percentiles of(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return new Percentiles(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        return new Percentiles(micros.getTotalCount(), ms(micros.getValueAtPercentile(50)),
                ms(micros.getValueAtPercentile(95)), ms(micros.getValueAtPercentile(99)), ms(micros.getMaxValue()));
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }

    /** {@code p50 1.23 ms  p95 ...}: one line for the console. */
    public String line() {
        return String.format("p50 %s  p95 %s  p99 %s  max %s  (n=%d)", Millis.format(p50), Millis.format(p95),
                Millis.format(p99), Millis.format(max), count);
    }
}
