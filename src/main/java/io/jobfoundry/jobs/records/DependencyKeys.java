package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.JobRef;

/**
 * The keys of dependencies ({@link Dependencies}): edges {@code ("e", parentType, parentId,
 * childType, childId)}, markers {@code ("z", type, id)} and the resolvers' watch key {@code ("y")}.
 * What each holds, and why, is in the data model, {@link JobKeys}.
 */
public final class DependencyKeys {

    private DependencyKeys() {
    }

    public static byte[] edge(String parentType, String parentId, String childType, String childId) {
        return Tuple.from("e", parentType, parentId, childType, childId).pack();
    }

    public static byte[] edgesBegin(String parentType, String parentId) {
        return JobKeys.begin(Tuple.from("e", parentType, parentId));
    }

    public static byte[] edgesEnd(String parentType, String parentId) {
        return JobKeys.end(Tuple.from("e", parentType, parentId));
    }

    public static byte[] marker(String type, String id) {
        return Tuple.from("z", type, id).pack();
    }

    public static byte[] markersBegin() {
        return JobKeys.begin(Tuple.from("z"));
    }

    public static byte[] markersEnd() {
        return JobKeys.end(Tuple.from("z"));
    }

    public static byte[] resolverWatch() {
        return Tuple.from("y").pack();
    }

    /** An {@link #edge} key: the job waiting. */
    public static JobRef childOfEdge(byte[] key) {
        Tuple tuple = Tuple.fromBytes(key);
        return new JobRef(tuple.getString(3), tuple.getString(4));
    }

    /** A {@link #marker} key: the job that finished or went. */
    public static JobRef jobOfMarker(byte[] key) {
        Tuple tuple = Tuple.fromBytes(key);
        return new JobRef(tuple.getString(1), tuple.getString(2));
    }
}
