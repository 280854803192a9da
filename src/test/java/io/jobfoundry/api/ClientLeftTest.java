package io.jobfoundry.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import org.junit.jupiter.api.Test;

/** A write to a client that left is not logged as a bug. */
class ClientLeftTest {

    @Test
    void writesToAClosedOrResetConnectionAreTheClientLeaving() {
        assertTrue(ProblemMappers.clientLeft(new ClosedChannelException()));
        assertTrue(ProblemMappers.clientLeft(new UncheckedIOException(new IOException("Broken pipe"))));
        assertTrue(ProblemMappers.clientLeft(new IOException("Connection reset by peer")));
    }

    @Test
    void otherFailuresAreNot() {
        assertFalse(ProblemMappers.clientLeft(new IllegalStateException("Broken pipe")));
        assertFalse(ProblemMappers.clientLeft(new IOException("No space left on device")));
        assertFalse(ProblemMappers.clientLeft(new NullPointerException()));
    }
}
