package io.jobfoundry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RequestBodiesTest {

    @Test
    void aBodyLimitAboveWhatIsReadInMemoryStopsTheServiceFromStarting() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new RequestBodies(20L << 20, 10L << 20));
        assertTrue(e.getMessage().contains("jobfoundry.api.max-body-size (20971520 bytes)"), e.getMessage());
        assertTrue(e.getMessage().contains("quarkus.rest.input-buffer-size (10485760 bytes)"), e.getMessage());
    }

    @Test
    void aBodyLimitUpToWhatIsReadInMemoryIsTaken() {
        assertEquals(10L << 20, new RequestBodies(10L << 20, 10L << 20).limit());
        assertEquals(1L << 20, new RequestBodies(1L << 20, 10L << 20).limit());
    }
}
