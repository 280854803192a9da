package io.jobfoundry.kv.embedded;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.TransactionRunner;
import java.nio.file.Path;

/**
 * The child process of {@link EmbeddedCrashTest}: {@code write} commits numbered transactions from
 * several threads and prints {@code ack THREAD N} after each commit returns, until it is killed;
 * {@code open} only tries to open the store and reports whether it could.
 */
public final class CrashWriter {

    static final int THREADS = 4;

    private CrashWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        Durability durability = Durability.valueOf(args[1]);
        if ("open".equals(args[2])) {
            try (KvStore store = EmbeddedStore.open(EmbeddedOptions.at(path).withDurability(durability))) {
                System.out.println("opened " + store.describe());
                System.exit(0);
            } catch (StoreException e) {
                System.out.println("refused: " + e.getMessage());
                System.exit(3);
            }
        }
        KvStore store = EmbeddedStore.open(EmbeddedOptions.at(path).withDurability(durability));
        TransactionRunner runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        byte[] payload = new byte[512];
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            new Thread(() -> {
                for (long i = 1; ; i++) {
                    long n = i;
                    runner.run(tx -> {
                        tx.set(Tuple.from("rec", thread, n).pack(), payload);
                        tx.set(Tuple.from("pair", thread, n).pack(), payload);
                        tx.set(Tuple.from("last", thread).pack(), Tuple.from(n).pack());
                        return null;
                    });
                    synchronized (System.out) {
                        System.out.println("ack " + thread + " " + n);
                        System.out.flush();
                    }
                }
            }, "writer-" + t).start();
        }
        Thread.currentThread().join();
    }
}
