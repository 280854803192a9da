package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.model.PushTarget;
import io.jobfoundry.jobs.model.RateLimit;
import io.jobfoundry.jobs.model.Retention;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import io.jobfoundry.kv.KvTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Types, their settings and whether they are paused, in the {@code ("t", type)} keys. A type
 * exists once used or configured. The paused flag follows the settings in the stored tuple, where
 * a release that does not know it reads the settings and ignores it.
 */
public final class TypeRegistry {

    private static final long FORMAT = 1;

    /** A type as registered: its settings, and whether accepts pass it over. */
    public record Registered(TypeSettings settings, boolean paused) {
    }

    private TypeRegistry() {
    }

    /** The type's settings, registering it with the defaults if it is new. */
    public static TypeSettings ensure(KvTransaction tx, String type) {
        byte[] value = tx.get(JobKeys.type(type));
        if (value != null) {
            return decode(value).settings();
        }
        tx.set(JobKeys.type(type), encode(TypeSettings.DEFAULT, false));
        return TypeSettings.DEFAULT;
    }

    /** The type's settings, or {@code null} if the type was never used. */
    public static TypeSettings find(KvReads tx, String type) {
        Registered registered = lookup(tx, type);
        return registered == null ? null : registered.settings();
    }

    /** The type as registered, or {@code null} if the type was never used. */
    public static Registered lookup(KvReads tx, String type) {
        byte[] value = tx.get(JobKeys.type(type));
        return value == null ? null : decode(value);
    }

    /** Sets the type's settings, keeping whether it is paused. */
    public static void put(KvTransaction tx, String type, TypeSettings settings) {
        Registered current = lookup(tx, type);
        tx.set(JobKeys.type(type), encode(settings, current != null && current.paused()));
    }

    /** Pauses or resumes the type, registering it with the defaults if it is new; answers it as it is now. */
    public static Registered setPaused(KvTransaction tx, String type, boolean paused) {
        Registered current = lookup(tx, type);
        TypeSettings settings = current == null ? TypeSettings.DEFAULT : current.settings();
        tx.set(JobKeys.type(type), encode(settings, paused));
        return new Registered(settings, paused);
    }

    /**
     * Forgets a type no job uses: its registration (settings, pause), counters, group marks and
     * counts, what is left in its indexes, and its limit slots; its next job registers it again
     * with the defaults. Not its ready-watch counter ({@link JobKeys#readyWatch}): accepts blocked
     * on any replica watch it, and a counter that starts again from zero could come back to the
     * very value a watcher last saw.
     */
    public static void remove(KvTransaction tx, String type) {
        tx.clear(JobKeys.type(type));
        tx.clear(JobKeys.latestActivity(type));
        for (byte[][] range : JobKeys.typeFamilies(type)) {
            tx.clearRange(range[0], range[1]);
        }
        for (byte[][] range : SlotKeys.typeFamilies(type)) {
            tx.clearRange(range[0], range[1]);
        }
    }

    /** Every known type, in name order. */
    public static Map<String, Registered> all(KvReads tx) {
        Map<String, Registered> types = new LinkedHashMap<>();
        for (KeyValue kv : tx.getRange(JobKeys.typesBegin(), JobKeys.typesEnd(), 0)) {
            types.put(JobKeys.typeOfRegistration(kv.key()), decode(kv.value()));
        }
        return types;
    }

    /** Every known type's settings, in name order. */
    public static Map<String, TypeSettings> settingsOfAll(KvReads tx) {
        Map<String, TypeSettings> settings = new LinkedHashMap<>();
        all(tx).forEach((type, registered) -> settings.put(type, registered.settings()));
        return settings;
    }

    public static List<String> names(KvReads tx) {
        return new ArrayList<>(all(tx).keySet());
    }

    private static byte[] encode(TypeSettings s, boolean paused) {
        Retention kept = s.retention();
        return Tuple.from(FORMAT, s.activityTimeout().toMillis(), (long) s.maxAttempts(), (long) s.highRun(),
                (long) s.lowRun(), s.backoffBase().toMillis(), s.backoffMax().toMillis(), paused,
                Tuple.from(millis(kept.succeeded()), millis(kept.failed()), millis(kept.cancelled())),
                encodePush(s.push()), encodeConcurrency(s.concurrency()), encodeRateLimit(s.rateLimit())).pack();
    }

    private static Long millis(Duration duration) {
        return duration == null ? null : duration.toMillis();
    }

    private static Duration duration(Tuple t, int index) {
        return t.get(index) == null ? null : Duration.ofMillis(t.getLong(index));
    }

    /** A push target as one nested tuple (or null), so that it takes one place in the settings' tuple. */
    private static Tuple encodePush(PushTarget push) {
        return push == null ? null : Tuple.from(push.url(), push.timeout().toMillis(), (long) push.concurrency());
    }

    private static PushTarget decodePush(Tuple t, int index) {
        // Written by a release that knew no push delivery, or pushing turned off: pulled only.
        if (t.size() <= index || t.get(index) == null) {
            return null;
        }
        Tuple push = t.getNestedTuple(index);
        return new PushTarget(push.getString(0), Duration.ofMillis(push.getLong(1)), (int) push.getLong(2));
    }

    /** Concurrency limits as one nested tuple (null: none), its members null where unlimited. */
    private static Tuple encodeConcurrency(Concurrency c) {
        return c.limited() ? Tuple.from(c.max() == null ? null : (long) c.max(),
                c.perGroup() == null ? null : (long) c.perGroup()) : null;
    }

    private static Concurrency decodeConcurrency(Tuple t, int index) {
        // Written by a release that knew no limits, or none set: unlimited.
        if (t.size() <= index || t.get(index) == null) {
            return Concurrency.NONE;
        }
        Tuple c = t.getNestedTuple(index);
        return new Concurrency(c.get(0) == null ? null : (int) c.getLong(0), c.get(1) == null ? null : (int) c.getLong(1));
    }

    private static Tuple encodeRateLimit(RateLimit r) {
        return r == null ? null : Tuple.from((long) r.count(), r.window().toMillis(), r.perGroup());
    }

    private static RateLimit decodeRateLimit(Tuple t, int index) {
        if (t.size() <= index || t.get(index) == null) {
            return null;
        }
        Tuple r = t.getNestedTuple(index);
        return new RateLimit((int) r.getLong(0), Duration.ofMillis(r.getLong(1)), r.getBoolean(2));
    }

    private static Registered decode(byte[] bytes) {
        Tuple t = Tuple.fromBytes(bytes);
        if (t.getLong(0) != FORMAT) {
            throw new IllegalStateException("unknown type settings format " + t.getLong(0));
        }
        // Written by a release that knew no retention: the defaults (null members keep for good).
        Retention kept = Retention.DEFAULT;
        if (t.size() > 8) {
            Tuple r = t.getNestedTuple(8);
            kept = new Retention(duration(r, 0), duration(r, 1), duration(r, 2));
        }
        TypeSettings settings = new TypeSettings(Duration.ofMillis(t.getLong(1)), (int) t.getLong(2),
                (int) t.getLong(3), (int) t.getLong(4), Duration.ofMillis(t.getLong(5)), Duration.ofMillis(t.getLong(6)),
                kept, decodePush(t, 9), decodeConcurrency(t, 10), decodeRateLimit(t, 11));
        // Written by a release that knew no pausing: not paused.
        return new Registered(settings, t.size() > 7 && t.getBoolean(7));
    }
}
