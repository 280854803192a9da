package io.jobfoundry.bench.compare;

import io.jobfoundry.bench.client.Accepted;
import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.http.HttpClientKind;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.OptionalLong;

/**
 * Jobfoundry through its REST API: create is {@code POST /v1/jobs/{type}}, fetch is a blocking
 * {@code POST /v1/accept} with {@code max=1}, complete is {@code POST .../finish}.
 */
final class JobfoundryQueue implements JavaQueue {

    private final HttpClientKind.ConnectionFactory connections;
    private final String type;

    JobfoundryQueue(URI base, HttpClientKind kind, String type) {
        this.connections = kind.factory(base);
        this.type = type;
    }

    JobfoundryClient connect() throws IOException {
        return new JobfoundryClient(connections.open());
    }

    /** The client, as the results describe it. */
    static String client(HttpClientKind kind) {
        return kind == HttpClientKind.RAW ? "Java, the bench's HTTP/1.1 client, keep-alive" : "Java, JDK HttpClient, HTTP/1.1";
    }

    @Override
    public Producer producer() throws IOException {
        JobfoundryClient client = connect();
        return new Producer() {
            @Override
            public void create(long createdNanos) throws IOException {
                client.create(type, JobfoundryClient.stampedBody(createdNanos, null));
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }

    @Override
    public Worker worker(int index) throws IOException {
        JobfoundryClient client = connect();
        String name = "bench-" + index;
        return new Worker() {
            private Accepted held;

            @Override
            public OptionalLong fetch(int waitMillis) throws IOException {
                List<Accepted> jobs = client.accept(type, 1, waitMillis, name);
                held = jobs.isEmpty() ? null : jobs.get(0);
                return held == null ? OptionalLong.empty() : OptionalLong.of(held.createdNanos());
            }

            @Override
            public void complete() throws IOException {
                if (!client.finish(held)) {
                    throw new IllegalStateException("finish of " + held.id() + " was halted: its lease was lost");
                }
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }
}
