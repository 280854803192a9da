package io.jobfoundry.bench.client;

import java.io.IOException;
import java.util.OptionalDouble;

/**
 * The store's committed transactions, read from the service's Prometheus metrics before and after
 * a run, so that a run can report transactions per job — the cost that bounds throughput on any
 * store. Services without the counter report nothing, and the bench prints {@code n/a}.
 */
public final class StoreTransactions {

    /** The counter's name in the Prometheus exposition. */
    public static final String METRIC = "jobfoundry_store_transactions_total";

    private final JobfoundryClient client;
    private final OptionalDouble before;

    private StoreTransactions(JobfoundryClient client, OptionalDouble before) {
        this.client = client;
        this.before = before;
    }

    /** Reads the counter now; {@link #perJob} reads it again and divides the difference. */
    public static StoreTransactions start(JobfoundryClient client) throws IOException {
        return new StoreTransactions(client, read(client));
    }

    public OptionalDouble perJob(long jobs) throws IOException {
        OptionalDouble after = read(client);
        if (before.isEmpty() || after.isEmpty() || jobs == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((after.getAsDouble() - before.getAsDouble()) / jobs);
    }

    /** The counter summed over its label sets, or empty when the service does not expose it. */
    static OptionalDouble read(JobfoundryClient client) throws IOException {
        String metrics = client.metrics();
        return metrics == null ? OptionalDouble.empty() : parse(metrics);
    }

    static OptionalDouble parse(String exposition) {
        double sum = 0;
        boolean found = false;
        for (String line : exposition.split("\n")) {
            if (!line.startsWith(METRIC) || line.length() == METRIC.length()) {
                continue;
            }
            char next = line.charAt(METRIC.length());
            if (next != ' ' && next != '{') {
                continue; // another metric whose name starts the same
            }
            // "name{labels} value [timestamp]" or "name value [timestamp]"
            String rest = next == '{' ? line.substring(line.lastIndexOf('}') + 1) : line.substring(METRIC.length());
            sum += Double.parseDouble(rest.trim().split("\\s+")[0]);
            found = true;
        }
        return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }

    /** Formats a per-job figure as the bench prints it. */
    public static String format(OptionalDouble perJob) {
        return perJob.isPresent() ? String.format("%.2f", perJob.getAsDouble()) : "n/a";
    }
}
