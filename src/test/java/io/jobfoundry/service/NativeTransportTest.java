package io.jobfoundry.service;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** On the platforms whose native library the build bundles, HTTP runs on epoll, not on Java NIO. */
@QuarkusTest
class NativeTransportTest {

    @Inject
    Vertx vertx;

    @Test
    void httpRunsOnEpollWhereItsLibraryIsBundled() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        assumeTrue(os.contains("linux") && Set.of("amd64", "x86_64", "aarch64").contains(arch),
                "epoll is bundled for Linux on x86-64 and aarch64 only, not " + os + "/" + arch);
        assertTrue(vertx.isNativeTransportEnabled(),
                "Vert.x fell back to NIO: " + vertx.unavailableNativeTransportCause());
    }
}
