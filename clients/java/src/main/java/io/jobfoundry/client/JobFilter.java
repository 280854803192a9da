package io.jobfoundry.client;

/**
 * Which jobs a listing or a bulk action takes ({@link Operations}): a type, and optionally a state, a result and
 * a fairness group. Build one with {@link #type(String)} or {@link #everyType()} and the {@code with…} methods.
 *
 * @param type a type's name or a glob ({@code *}, {@code ?}); {@code null} means every type (listings only: a
 *     bulk action needs a type)
 * @param state only jobs in this state, or {@code null}
 * @param result only finished jobs that ended this way, or {@code null}
 * @param group only jobs of this fairness group ({@code ""} is the default group), or {@code null}
 */
public record JobFilter(String type, JobState state, JobResult result, String group) {

    /**
     * @param type a type's name or a glob ({@code *}, {@code ?})
     * @return the jobs of the types it names
     */
    public static JobFilter type(String type) {
        return new JobFilter(type, null, null, null);
    }

    /** @return the jobs of every type (a listing; a bulk action is refused without a type) */
    public static JobFilter everyType() {
        return new JobFilter(null, null, null, null);
    }

    /**
     * @param state only jobs in this state
     * @return a copy with {@code state}
     */
    public JobFilter withState(JobState state) {
        return new JobFilter(type, state, result, group);
    }

    /**
     * @param result only finished jobs that ended this way
     * @return a copy with {@code result}
     */
    public JobFilter withResult(JobResult result) {
        return new JobFilter(type, state, result, group);
    }

    /**
     * @param group only jobs of this fairness group
     * @return a copy with {@code group}
     */
    public JobFilter withGroup(String group) {
        return new JobFilter(type, state, result, group);
    }
}
