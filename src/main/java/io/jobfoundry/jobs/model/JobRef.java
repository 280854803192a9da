package io.jobfoundry.jobs.model;

/** A job named by another: an entry of a job's {@code after} or {@code waitingFor}. */
public record JobRef(String type, String id) {

    @Override
    public String toString() {
        return type + "/" + id;
    }
}
