package io.jobfoundry.client;

import java.util.Objects;

/**
 * A reference to a job by its type and id, as a job's {@code after} and {@code waitingFor} name its
 * dependencies. {@link Job#ref()} gives a job's own.
 *
 * @param type the job's type
 * @param id the job's id within its type
 */
public record JobRef(String type, String id) {

    /**
     * Checks the members.
     *
     * @param type the job's type
     * @param id the job's id within its type
     */
    public JobRef {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(id, "id");
    }

    /**
     * A reference.
     *
     * @param type the job's type
     * @param id the job's id within its type
     * @return the reference
     */
    public static JobRef of(String type, String id) {
        return new JobRef(type, id);
    }
}
