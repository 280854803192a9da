package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import io.jobfoundry.kv.KvTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Types and their settings, in the {@code ("t", type)} keys. A type exists once used or configured. */
public final class TypeRegistry {

    private static final long FORMAT = 1;

    private TypeRegistry() {
    }

    /** The type's settings, registering it with the defaults if it is new. */
    public static TypeSettings ensure(KvTransaction tx, String type) {
        byte[] value = tx.get(JobKeys.type(type));
        if (value != null) {
            return decode(value);
        }
        tx.set(JobKeys.type(type), encode(TypeSettings.DEFAULT));
        return TypeSettings.DEFAULT;
    }

    /** The type's settings, or {@code null} if the type was never used. */
    public static TypeSettings find(KvReads tx, String type) {
        byte[] value = tx.get(JobKeys.type(type));
        return value == null ? null : decode(value);
    }

    public static void put(KvTransaction tx, String type, TypeSettings settings) {
        tx.set(JobKeys.type(type), encode(settings));
    }

    /** Every known type, in name order. */
    public static Map<String, TypeSettings> all(KvReads tx) {
        Map<String, TypeSettings> types = new LinkedHashMap<>();
        for (KeyValue kv : tx.getRange(JobKeys.typesBegin(), JobKeys.typesEnd(), 0)) {
            types.put(JobKeys.typeOfRegistration(kv.key()), decode(kv.value()));
        }
        return types;
    }

    public static List<String> names(KvReads tx) {
        return new ArrayList<>(all(tx).keySet());
    }

    private static byte[] encode(TypeSettings s) {
        return Tuple.from(FORMAT, s.activityTimeout().toMillis(), (long) s.maxAttempts(), (long) s.highRun(),
                (long) s.lowRun(), s.backoffBase().toMillis(), s.backoffMax().toMillis()).pack();
    }

    private static TypeSettings decode(byte[] bytes) {
        Tuple t = Tuple.fromBytes(bytes);
        if (t.getLong(0) != FORMAT) {
            throw new IllegalStateException("unknown type settings format " + t.getLong(0));
        }
        return new TypeSettings(Duration.ofMillis(t.getLong(1)), (int) t.getLong(2), (int) t.getLong(3),
                (int) t.getLong(4), Duration.ofMillis(t.getLong(5)), Duration.ofMillis(t.getLong(6)));
    }
}
