package io.jobfoundry.jobs;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.jobs.records.TypeRegistry;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionBody;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * A store wrapper that keeps, for every committed transaction, what it added to one type's running
 * counters (the type's and each group's) and the settings it wrote, with its versionstamp. Replayed
 * in versionstamp order ({@link #check}) that is the running count after every commit in commit
 * order, on any backend, without adding a read conflict that would serialize the transactions
 * under test (on FoundationDB they run at once). The counters are kept by every move of a job,
 * independently of the slots that enforce the limits, so they are an independent witness.
 */
final class RunningLedger implements KvStore {

    /** One commit: what it added to the type's running counter, to each group's, and the settings it wrote (or null). */
    private record Entry(Versionstamp stamp, long typeDelta, Map<String, Long> deltas, byte[] settings) {
    }

    private final KvStore delegate;
    private final String type;
    private final byte[] typeCounter;
    private final byte[] typeKey;
    private final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();

    RunningLedger(KvStore delegate, String type) {
        this.delegate = delegate;
        this.type = type;
        this.typeCounter = JobKeys.count(type, JobKeys.Counter.RUNNING);
        this.typeKey = JobKeys.type(type);
    }

    /** The replay's verdict: the most running at once, and a description of the first commit past a limit (null if none). */
    record Verdict(long mostRunning, long mostInAGroup, String violation, long finalRunning, int commits) {
    }

    Verdict check() {
        List<Entry> ordered = new ArrayList<>(entries);
        ordered.sort(Comparator.comparing(Entry::stamp));
        Concurrency limits = Concurrency.NONE;
        long running = 0;
        long most = 0;
        long mostInGroup = 0;
        Map<String, Long> groups = new HashMap<>();
        String violation = null;
        for (Entry entry : ordered) {
            if (entry.settings() != null) {
                limits = decode(entry.settings());
            }
            boolean started = entry.typeDelta() > 0;
            running += entry.typeDelta();
            for (Map.Entry<String, Long> delta : entry.deltas().entrySet()) {
                started |= delta.getValue() > 0;
                groups.merge(delta.getKey(), delta.getValue(), Long::sum);
            }
            most = Math.max(most, running);
            for (long n : groups.values()) {
                mostInGroup = Math.max(mostInGroup, n);
            }
            // A commit that starts a job must leave no more running than the limits in force; one
            // that only stops jobs may leave more (a limit lowered while they ran).
            if (started && violation == null) {
                if (limits.max() != null && running > limits.max()) {
                    violation = "commit " + entry.stamp() + " left " + running + " running, max " + limits.max();
                }
                for (Map.Entry<String, Long> group : groups.entrySet()) {
                    if (limits.perGroup() != null && entry.deltas().containsKey(group.getKey())
                            && group.getValue() > limits.perGroup()) {
                        violation = "commit " + entry.stamp() + " left " + group.getValue() + " running in group "
                                + group.getKey() + ", perGroup " + limits.perGroup();
                    }
                }
            }
        }
        return new Verdict(most, mostInGroup, violation, running, ordered.size());
    }

    private static Concurrency decode(byte[] settings) {
        KvReads one = new KvReads() {
            @Override
            public byte[] get(byte[] key) {
                return settings;
            }

            @Override
            public List<KeyValue> getRange(byte[] begin, byte[] end, int limit, boolean reverse) {
                return List.of();
            }
        };
        return TypeRegistry.lookup(one, "any").settings().concurrency();
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout) {
        return runOnce(body, timeout, Sync.ON_COMMIT);
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout, Sync sync) {
        Map<String, Long> deltas = new HashMap<>();
        long[] typeDelta = new long[1];
        byte[][] settings = new byte[1][];
        List<CompletableFuture<Versionstamp>> stamp = new ArrayList<>(1);
        T result = delegate.runOnce(tx -> {
            deltas.clear();
            typeDelta[0] = 0;
            settings[0] = null;
            stamp.clear();
            stamp.add(tx.versionstamp());
            return body.apply(new Recording(tx, typeDelta, deltas, settings));
        }, timeout, sync);
        if (typeDelta[0] != 0 || !deltas.isEmpty() || settings[0] != null) {
            try {
                entries.add(new Entry(stamp.get(0).get(1, TimeUnit.MINUTES), typeDelta[0], Map.copyOf(deltas),
                        settings[0]));
            } catch (Exception e) {
                throw new IllegalStateException("a committed write without its versionstamp", e);
            }
        }
        return result;
    }

    /** Delegates everything; notes the adds to the type's running counters and a write of its settings. */
    private final class Recording implements KvTransaction {
        private final KvTransaction tx;
        private final long[] typeDelta;
        private final Map<String, Long> deltas;
        private final byte[][] settings;

        Recording(KvTransaction tx, long[] typeDelta, Map<String, Long> deltas, byte[][] settings) {
            this.tx = tx;
            this.typeDelta = typeDelta;
            this.deltas = deltas;
            this.settings = settings;
        }

        @Override
        public void add(byte[] key, long delta) {
            if (Arrays.equals(key, typeCounter)) {
                typeDelta[0] += delta;
            } else {
                Tuple t = Tuple.fromBytes(key);
                if (t.size() == 4 && "k".equals(t.get(0)) && type.equals(t.get(1)) && "a".equals(t.get(3))) {
                    deltas.merge(t.getString(2), delta, Long::sum);
                }
            }
            tx.add(key, delta);
        }

        @Override
        public void set(byte[] key, byte[] value) {
            if (Arrays.equals(key, typeKey)) {
                settings[0] = value;
            }
            tx.set(key, value);
        }

        @Override
        public byte[] get(byte[] key) {
            return tx.get(key);
        }

        @Override
        public List<KeyValue> getRange(byte[] begin, byte[] end, int limit, boolean reverse) {
            return tx.getRange(begin, end, limit, reverse);
        }

        @Override
        public KvReads snapshot() {
            return tx.snapshot();
        }

        @Override
        public void clear(byte[] key) {
            tx.clear(key);
        }

        @Override
        public void clearRange(byte[] begin, byte[] end) {
            tx.clearRange(begin, end);
        }

        @Override
        public void addReadConflictKey(byte[] key) {
            tx.addReadConflictKey(key);
        }

        @Override
        public void setVersionstampedKey(byte[] key, int offset, byte[] value) {
            tx.setVersionstampedKey(key, offset, value);
        }

        @Override
        public void setVersionstampedValue(byte[] key, byte[] value, int offset) {
            tx.setVersionstampedValue(key, value, offset);
        }

        @Override
        public CompletableFuture<Versionstamp> versionstamp() {
            return tx.versionstamp();
        }

        @Override
        public CompletableFuture<Void> watch(byte[] key) {
            return tx.watch(key);
        }
    }

    @Override
    public String describe() {
        return "ledger:" + delegate.describe();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
