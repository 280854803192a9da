package io.jobfoundry.jobs.accept;

/**
 * Where an add looks for a processor blocked in accept that could take its job at once: the
 * engine is built with one ({@code JobWaits} in the service), and knows nothing of how it waits.
 */
@FunctionalInterface
public interface Waiters {

    /** No processor ever waits: every job goes through the ready index. */
    Waiters NONE = (type, dueMicros) -> null;

    /** A blocked accept for {@code type}, claimed so that nothing else serves it until settled; or null. */
    HandOff claim(String type, long dueMicros);
}
