package io.jobfoundry.kv.embedded;

import io.jobfoundry.Futures;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Armed watches of the embedded store. A watch remembers the value its transaction saw; after each
 * committed batch the keys the batch changed are compared with that value and the watches whose
 * key now differs fire. Futures are completed on the notifier executor, never on the committer
 * thread, so a watcher's callbacks cannot stall commits.
 */
final class WatchRegistry {

    /**
     * A watch requested by a transaction; armed only when that transaction commits. Its base is
     * the value the transaction saw when it asked, so that its own later writes of the key fire it
     * once it commits, as FoundationDB's do.
     */
    static final class Watch {
        private final byte[] key;
        private final byte[] base;
        private final CompletableFuture<Void> future = new CompletableFuture<>();

        Watch(byte[] key, byte[] base) {
            this.key = key;
            this.base = base;
        }

        byte[] key() {
            return key;
        }

        CompletableFuture<Void> future() {
            return future;
        }
    }

    private final Map<ByteBuffer, List<Watch>> byKey = new HashMap<>();
    private final Executor notifier;

    WatchRegistry(Executor notifier) {
        this.notifier = notifier;
    }

    /** Arms {@code watch}, whose transaction has committed, against its base. */
    synchronized void arm(Watch watch) {
        if (watch.future.isDone()) {
            return;
        }
        ByteBuffer key = ByteBuffer.wrap(watch.key);
        byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(watch);
        // Cancelling the future is how a watcher lets go; forget it then.
        Futures.whenDone(watch.future, (ignored, failure) -> forget(watch));
    }

    /** Undoes {@link #arm} for a transaction whose batch did not commit after all. */
    void disarm(Watch watch, RuntimeException why) {
        forget(watch);
        notifier.execute(() -> watch.future.completeExceptionally(why));
    }

    private synchronized void forget(Watch watch) {
        ByteBuffer key = ByteBuffer.wrap(watch.key);
        List<Watch> watches = byKey.get(key);
        if (watches != null && watches.remove(watch) && watches.isEmpty()) {
            byKey.remove(key);
        }
    }

    synchronized boolean isEmpty() {
        return byKey.isEmpty();
    }

    /**
     * Watched keys that one of the {@code touched} sets holds (each a transaction's written keys),
     * or that lie inside one of the cleared {@code ranges}. It looks each watched key up in the
     * sets, or each written key up among the watched ones, whichever is fewer lookups: a bulk
     * batch writes thousands of keys while a few are watched, and many clients waiting on their
     * jobs watch thousands while a batch of single calls writes a few.
     */
    synchronized List<byte[]> watchedAmong(List<Set<ByteBuffer>> touched, List<byte[][]> ranges) {
        List<byte[]> result = new ArrayList<>();
        long written = 0;
        for (Set<ByteBuffer> keys : touched) {
            written += keys.size();
        }
        if ((long) byKey.size() * touched.size() <= written) {
            for (ByteBuffer key : byKey.keySet()) {
                for (Set<ByteBuffer> keys : touched) {
                    if (keys.contains(key)) {
                        result.add(key.array());
                        break;
                    }
                }
            }
        } else {
            for (Set<ByteBuffer> keys : touched) {
                for (ByteBuffer key : keys) {
                    if (byKey.containsKey(key)) {
                        result.add(key.array());
                    }
                }
            }
        }
        if (!ranges.isEmpty()) {
            for (ByteBuffer key : byKey.keySet()) {
                for (byte[][] range : ranges) {
                    if (Arrays.compareUnsigned(key.array(), range[0]) >= 0
                            && Arrays.compareUnsigned(key.array(), range[1]) < 0) {
                        result.add(key.array());
                        break;
                    }
                }
            }
        }
        return result;
    }

    /** Fires the watches on {@code keys} whose committed value now differs from their base. */
    void fireChanged(List<byte[]> keys, Function<byte[], byte[]> committedValue) {
        List<Watch> fired = new ArrayList<>();
        for (byte[] key : keys) {
            byte[] value = committedValue.apply(key);
            synchronized (this) {
                List<Watch> watches = byKey.get(ByteBuffer.wrap(key));
                if (watches == null) {
                    continue;
                }
                for (Watch watch : List.copyOf(watches)) {
                    if (!Arrays.equals(watch.base, value)) {
                        watches.remove(watch);
                        fired.add(watch);
                    }
                }
                if (watches.isEmpty()) {
                    byKey.remove(ByteBuffer.wrap(key));
                }
            }
        }
        for (Watch watch : fired) {
            notifier.execute(() -> watch.future.complete(null));
        }
    }

    /** Fails every armed watch, when the store closes. */
    void failAll(RuntimeException why) {
        List<Watch> all = new ArrayList<>();
        synchronized (this) {
            byKey.values().forEach(all::addAll);
            byKey.clear();
        }
        for (Watch watch : all) {
            notifier.execute(() -> watch.future.completeExceptionally(why));
        }
    }
}
