package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.kv.TupleReader;
import io.jobfoundry.kv.TupleWriter;

/**
 * The keys of dependencies ({@link Dependencies}): edges {@code ("e", parentType, parentId,
 * childType, childId)}, markers {@code ("z", type, id)} and the resolvers' watch key {@code ("y")}.
 * What each holds, and why, is in the data model, {@link JobKeys}.
 */
public final class DependencyKeys {

    private DependencyKeys() {
    }

    public static byte[] edge(String parentType, String parentId, String childType, String childId) {
        return TupleWriter.of("e").add(parentType).add(parentId).add(childType).add(childId).pack();
    }

    public static byte[] edgesBegin(String parentType, String parentId) {
        return TupleWriter.of("e").add(parentType).add(parentId).rangeBegin();
    }

    public static byte[] edgesEnd(String parentType, String parentId) {
        return TupleWriter.of("e").add(parentType).add(parentId).rangeEnd();
    }

    public static byte[] marker(String type, String id) {
        return TupleWriter.of("z").add(type).add(id).pack();
    }

    public static byte[] markersBegin() {
        return TupleWriter.of("z").rangeBegin();
    }

    public static byte[] markersEnd() {
        return TupleWriter.of("z").rangeEnd();
    }

    public static byte[] resolverWatch() {
        return TupleWriter.of("y").pack();
    }

    /** An {@link #edge} key: the job waiting. */
    public static JobRef childOfEdge(byte[] key) {
        TupleReader reader = TupleReader.of(key).skip(3);
        return new JobRef(reader.string(), reader.string());
    }

    /** A {@link #marker} key: the job that finished or went. */
    public static JobRef jobOfMarker(byte[] key) {
        TupleReader reader = TupleReader.of(key).skip(1);
        return new JobRef(reader.string(), reader.string());
    }
}
