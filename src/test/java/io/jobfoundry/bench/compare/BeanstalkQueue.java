package io.jobfoundry.bench.compare;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/** beanstalkd: create is {@code put}, fetch is {@code reserve-with-timeout}, complete is {@code delete}. */
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
            public void create(long createdNanos) throws IOException {
                connection.put(Long.toString(createdNanos).getBytes(StandardCharsets.US_ASCII));
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
            private BeanstalkConnection.Reserved held;

            @Override
            public OptionalLong fetch(int waitMillis) throws IOException {
                // beanstalkd waits in whole seconds
                held = connection.reserve(Math.max(1, (waitMillis + 999) / 1000));
                return held == null ? OptionalLong.empty()
                        : OptionalLong.of(Long.parseLong(new String(held.body(), StandardCharsets.US_ASCII)));
            }

            @Override
            public void complete() throws IOException {
                connection.delete(held.id());
            }

            @Override
            public void close() {
                connection.close();
            }
        };
    }
}
