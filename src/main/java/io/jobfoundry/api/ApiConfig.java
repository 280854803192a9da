package io.jobfoundry.api;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Limits of the HTTP API (docs/api.md). */
@ConfigMapping(prefix = "jobfoundry.api")
public interface ApiConfig {

    /**
     * The largest request body; beyond it {@code 413}. Keep it below {@code quarkus.http.limits.max-body-size}
     * (10M by default), which cuts off larger bodies without a problem document. At most
     * {@code quarkus.rest.input-buffer-size} (10M, fixed at build time): the service refuses to start otherwise.
     */
    @WithDefault("1M")
    MemorySize maxBodySize();

    /** The longest {@code wait} of an accept and {@code timeout} of a waiting GET. */
    @WithDefault("5m")
    Duration maxWait();

    /** The {@code timeout} of a GET with {@code waitFor} but no {@code timeout}. */
    @WithDefault("30s")
    Duration defaultWaitTimeout();

    /** How often a quiet event stream gets a comment, so proxies keep it and dead clients are noticed. */
    @WithDefault("15s")
    Duration eventsKeepAlive();

    /** The {@code limit} of a listing that names none. */
    @WithDefault("100")
    int defaultPageSize();
}
