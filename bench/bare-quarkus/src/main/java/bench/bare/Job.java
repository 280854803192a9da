package bench.bare;

/**
 * A record of the same members as the service's job (its JSON is as long), so that the two
 * applications serialize the same amount for a GET.
 */
public record Job(String type, String id, String state, String result, Object data, String group, String priority,
        String scheduledAt, String createdAt, String updatedAt, String startedAt, String finishedAt, String repeat,
        int attempt, int maxAttempts, String lastError, boolean resubmit, String worker) {
}
