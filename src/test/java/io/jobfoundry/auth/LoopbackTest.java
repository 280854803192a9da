package io.jobfoundry.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Host names protected mode serves (a request from a local browser must name this machine, not
 * a name that merely resolves to it); the request-level checks are in the API's ProtectedModeTest.
 */
class LoopbackTest {

    @Test
    void loopbackNamesAndAddressesAreLocal() {
        for (String host : List.of("localhost", "LocalHost", "jobs.localhost", "127.0.0.1", "127.8.9.10",
                "127.255.255.255", "127.0.0.001", "[::1]", "[0:0:0:0:0:0:0:1]")) {
            assertTrue(Loopback.isLoopbackHost(host), host);
        }
    }

    @Test
    void anythingElseIsNot() {
        for (String host : List.of("", ".localhost", "localhost.", "localhost.attacker.example",
                "127.0.0.1.nip.io", "128.0.0.1", "10.0.0.1", "127.1", "127.0.0", "127.0.0.1.", ".127.0.0.1",
                "127..0.1", "127.0.0.256", "127.0.0.1a", "1270.0.0.1", "127.0.0.0001", "127.0.0.-1", "+127.0.0.1",
                "127.0.0.١", "[::2]", "[::1%25eth0]", "[127.0.0.1]", "::1")) {
            assertFalse(Loopback.isLoopbackHost(host), host);
        }
    }
}
