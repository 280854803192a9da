package io.jobfoundry.service;

import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Says at start which transport the HTTP server runs on: Netty's native one (epoll, bundled for
 * Linux on x86-64 and aarch64; quarkus.vertx.prefer-native-transport) or, where it cannot be
 * loaded, Java NIO, which serves the same but costs more CPU per request. Vert.x falls back without
 * a word, so this line is how an operator tells the two apart.
 */
@ApplicationScoped
class HttpTransportLog {

    private static final Logger LOG = Logger.getLogger(HttpTransportLog.class);

    void started(@Observes StartupEvent event, Vertx vertx) {
        if (vertx.isNativeTransportEnabled()) {
            LOG.info("HTTP transport: native (epoll)");
        } else {
            Throwable cause = vertx.unavailableNativeTransportCause();
            LOG.infof("HTTP transport: Java NIO (the native transport is %s)",
                    cause == null ? "not asked for" : "unavailable: " + cause.getMessage());
        }
    }
}
