package io.jobfoundry.bench;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * Small transactions (one read, two writes) per second on the embedded store, with 1 and 16
 * concurrent clients, for each durability setting. Each cell warms up, then measures.
 *
 * <pre>./mvnw -B -q -Pbench test-compile exec:java -Dexec.args="kv [seconds]"</pre>
 */
public final class KvBench {

    private KvBench() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        System.out.printf("embedded store, 1 read + 2 writes per transaction, %d s per cell%n", seconds);
        System.out.printf("%-10s %8s %14s %12s%n", "durability", "clients", "tx/s", "avg batch");
        for (Durability durability : Durability.values()) {
            for (int clients : new int[] {1, 16}) {
                run(durability, clients, seconds);
            }
        }
    }

    private static void run(Durability durability, int clients, int seconds) throws Exception {
        Path folder = Files.createTempDirectory("jobfoundry-kvbench");
        LongAdder batches = new LongAdder();
        LongAdder batched = new LongAdder();
        try (KvStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("bench.db")).withDurability(durability),
                size -> {
                    batches.increment();
                    batched.add(size);
                })) {
            TransactionRunner runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
            measure(runner, clients, Math.max(1, seconds / 3), new LongAdder());
            batches.reset();
            batched.reset();
            LongAdder done = new LongAdder();
            long elapsed = measure(runner, clients, seconds, done);
            double perSecond = done.sum() * 1e9 / elapsed;
            System.out.printf("%-10s %8d %14.0f %12.1f%n", durability.name().toLowerCase(), clients, perSecond,
                    batches.sum() == 0 ? 0.0 : (double) batched.sum() / batches.sum());
        } finally {
            try (var files = Files.walk(folder)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static long measure(TransactionRunner runner, int clients, int seconds, LongAdder done) throws Exception {
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            Thread thread = new Thread(() -> {
                byte[] payload = new byte[100];
                while (System.nanoTime() < end) {
                    long n = ThreadLocalRandom.current().nextLong(100_000);
                    runner.run(tx -> {
                        byte[] current = tx.get(Tuple.from("counter", client).pack());
                        tx.set(Tuple.from("item", n).pack(), payload);
                        tx.set(Tuple.from("counter", client).pack(), current == null ? new byte[8] : current);
                        return null;
                    });
                    done.increment();
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return System.nanoTime() - start;
    }
}
