package io.jobfoundry.jobs.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.JobRef;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The dependency keys are the bytes earlier releases wrote with fdb-java's {@code Tuple}: edges and
 * markers in a store written before are found, and read back as the jobs they name.
 */
class DependencyKeysTest {

    private static final List<String> NAMES = List.of("", "email", "ü型", "x\u0000y", "😀", "a".repeat(200));

    @Test
    void edgesAndMarkersAreTheTupleEncodingTheyAlwaysWere() {
        for (String type : NAMES) {
            for (String id : NAMES) {
                byte[] edge = Tuple.from("e", "parent", type, type, id).pack();
                assertArrayEquals(edge, DependencyKeys.edge("parent", type, type, id));
                assertEquals(new JobRef(type, id), DependencyKeys.childOfEdge(edge));
                byte[] marker = Tuple.from("z", type, id).pack();
                assertArrayEquals(marker, DependencyKeys.marker(type, id));
                assertEquals(new JobRef(type, id), DependencyKeys.jobOfMarker(marker));
                assertArrayEquals(Tuple.from("e", type, id).range().begin, DependencyKeys.edgesBegin(type, id));
                assertArrayEquals(Tuple.from("e", type, id).range().end, DependencyKeys.edgesEnd(type, id));
            }
        }
        assertArrayEquals(Tuple.from("z").range().begin, DependencyKeys.markersBegin());
        assertArrayEquals(Tuple.from("z").range().end, DependencyKeys.markersEnd());
        assertArrayEquals(Tuple.from("y").pack(), DependencyKeys.resolverWatch());
    }
}
