package io.jobfoundry.bench.load;

import io.jobfoundry.bench.Crew;
import io.jobfoundry.bench.Options;
import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.http.HttpClientKind;
import io.jobfoundry.bench.measure.Latency;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * The running service a load scenario drives, and what every scenario needs of it: connections,
 * a fresh type per run (so runs never see each other's jobs), and pre-inserted queues.
 */
final class LoadTarget {

    final URI base;
    final HttpClientKind clientKind;
    final int producers;
    final int workers;
    /** The bound of every phase of a scenario: nothing the bench starts runs longer. */
    final Duration phaseLimit;
    private final HttpClientKind.ConnectionFactory connections;

    LoadTarget(Options options) {
        this(options, HttpClientKind.parse(options.text("client", "raw")));
    }

    LoadTarget(Options options, HttpClientKind clientKind) {
        this.base = options.uri("url", "http://127.0.0.1:8080");
        this.clientKind = clientKind;
        this.producers = options.integer("producers", 8);
        this.workers = options.integer("workers", 16);
        this.phaseLimit = Duration.ofSeconds(options.integer("timeout", 120));
        this.connections = clientKind.factory(base);
    }

    JobfoundryClient connect() throws IOException {
        return new JobfoundryClient(connections.open());
    }

    /**
     * Closed-loop single creates of {@code type}, one at a time on each of {@code connections}
     * connections, until {@code endNanos}; each create's round trip goes to {@code latency}.
     *
     * @return the jobs created
     */
    long createUntil(String type, int connections, long endNanos, Latency latency) throws Exception {
        LongAdder created = new LongAdder();
        try (Crew crew = Crew.start("producer", connections, p -> {
            try (JobfoundryClient client = connect()) {
                while (System.nanoTime() < endNanos) {
                    long sent = System.nanoTime();
                    client.create(type, JobfoundryClient.stampedBody(sent, null));
                    latency.recordNanos(System.nanoTime() - sent);
                    created.increment();
                }
            }
        })) {
            crew.await(phaseLimit);
        }
        return created.sum();
    }

    /** A type name no earlier run used: {@code burndown-k3f9qz}. */
    static String freshType(String scenario) {
        return scenario + "-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 41), 36);
    }

    /**
     * Creates {@code count} jobs of {@code type} from {@link #producers} connections, job {@code i}
     * with the body {@code bodyOf.apply(i)}; answers the jobs created per second.
     */
    double fill(String type, int count, IntFunction<String> bodyOf) throws Exception {
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        try (Crew crew = Crew.start("filler", producers, p -> {
            try (JobfoundryClient client = connect()) {
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    client.create(type, bodyOf.apply(i));
                }
            }
        })) {
            if (!crew.await(phaseLimit)) {
                throw new IllegalStateException("filling " + count + " jobs took longer than " + phaseLimit.toSeconds()
                        + " s (--timeout); " + next.get() + " were sent");
            }
        }
        return count / ((System.nanoTime() - start) / 1e9);
    }

    String describe() {
        return String.format("%s, client %s, %d producers, %d workers", base, clientKind.name().toLowerCase(), producers,
                workers);
    }
}
