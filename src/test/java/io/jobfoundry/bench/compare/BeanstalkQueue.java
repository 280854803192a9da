package io.jobfoundry.bench.compare;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * beanstalkd: create is {@code put}, fetch is {@code reserve-with-timeout}, complete is
 * {@code delete}. It has no batch commands; in the bulk workload each call's commands are
 * pipelined on the connection instead (see {@link BeanstalkConnection}).
 */
final class BeanstalkQueue implements JavaQueue {

    /** The client, as the results describe it. */
    static final String CLIENT = "Java, the bench's beanstalkd text-protocol client";

    private final InetSocketAddress address;
    private final String tube;

    BeanstalkQueue(InetSocketAddress address, String tube) {
        this.address = address;
        this.tube = tube;
    }

    @Override
    public Producer producer() throws IOException {
        BeanstalkConnection connection = new BeanstalkConnection(address);
        connection.use(tube);
        return new Producer() {
            @Override
            public void create(long[] createdNanos) throws IOException {
                byte[][] bodies = new byte[createdNanos.length][];
                for (int i = 0; i < bodies.length; i++) {
                    bodies[i] = Long.toString(createdNanos[i]).getBytes(StandardCharsets.US_ASCII);
                }
                connection.put(bodies);
            }

            @Override
            public void close() {
                connection.close();
            }
        };
    }

    @Override
    public Worker worker(int index) throws IOException {
        BeanstalkConnection connection = new BeanstalkConnection(address);
        connection.watchOnly(tube);
        return new Worker() {
            private List<BeanstalkConnection.Reserved> held = List.of();

            @Override
            public long[] fetch(int max, int waitMillis) throws IOException {
                // beanstalkd waits in whole seconds
                held = connection.reserve(max, Math.max(1, (waitMillis + 999) / 1000));
                long[] createdAt = new long[held.size()];
                for (int i = 0; i < createdAt.length; i++) {
                    createdAt[i] = Long.parseLong(new String(held.get(i).body(), StandardCharsets.US_ASCII));
                }
                return createdAt;
            }

            @Override
            public void complete() throws IOException {
                connection.delete(held);
            }

            @Override
            public void close() {
                connection.close();
            }
        };
    }
}
