package io.jobfoundry.api;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The service's clock in every {@code @QuarkusTest}: real time plus an offset that tests move
 * forward ({@link #advance}) to pass activity timeouts and schedules without sleeping. It only
 * ever moves forward, so test classes sharing the application never see time run backwards.
 */
@Alternative
@Priority(1)
@Singleton
public class TestClock extends Clock {

    private volatile Duration offset = Duration.ZERO;

    public synchronized void advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("the test clock only moves forward");
        }
        offset = offset.plus(by);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
