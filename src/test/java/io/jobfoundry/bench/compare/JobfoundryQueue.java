package io.jobfoundry.bench.compare;

import io.jobfoundry.bench.client.Accepted;
import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.http.HttpClientKind;
import java.io.IOException;
import java.net.URI;
import java.util.List;

/**
 * Jobfoundry through its REST API. Fetch is a blocking {@code POST /v1/accept} with the
 * workload's {@code max}. In the {@code single} workload create is {@code POST /v1/jobs/{type}}
 * and complete {@code POST .../finish}, one call per job; in {@code bulk} they are the batch
 * calls {@code POST /v1/jobs} and {@code POST /v1/finish}, used for every call of the run (a
 * producer's short last batch, an accept that brought one job), as a client built on them would.
 */
final class JobfoundryQueue implements JavaQueue {

    private final HttpClientKind.ConnectionFactory connections;
    private final String type;
    private final boolean batchCalls;

    JobfoundryQueue(URI base, HttpClientKind kind, String type, Workload.Shape shape) {
        this.connections = kind.factory(base);
        this.type = type;
        this.batchCalls = shape == Workload.Shape.BULK;
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
            public void create(long[] createdNanos) throws IOException {
                if (batchCalls) {
                    client.createBatch(type, createdNanos);
                } else {
                    for (long stamp : createdNanos) {
                        client.create(type, JobfoundryClient.stampedBody(stamp, null));
                    }
                }
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
            private List<Accepted> held = List.of();

            @Override
            public long[] fetch(int max, int waitMillis) throws IOException {
                held = client.accept(type, max, waitMillis, name);
                long[] createdAt = new long[held.size()];
                for (int i = 0; i < createdAt.length; i++) {
                    createdAt[i] = held.get(i).createdNanos();
                }
                return createdAt;
            }

            @Override
            public void complete() throws IOException {
                if (batchCalls) {
                    if (!client.finishBatch(held)) {
                        throw new IllegalStateException("a batch finish was halted: a lease among " + held.size() + " was lost");
                    }
                    return;
                }
                for (Accepted job : held) {
                    if (!client.finish(job)) {
                        throw new IllegalStateException("finish of " + job.id() + " was halted: its lease was lost");
                    }
                }
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }
}
