package io.jobfoundry.jobs.model;

/**
 * A client's name for one call that adds or resubmits jobs (the HTTP {@code Idempotency-Key}).
 * The engine keeps it on the job as it keeps the nonce of its own attempts, so a client's repeat
 * of a call that took effect (after a {@code 503}, or a connection lost before the answer) is
 * recognized and answered with the job as it is, instead of running the job once more. A key
 * names one call: its repeats send the same, a new call a new one (a UUID).
 *
 * <p>1 to {@value #MAX_LENGTH} visible ASCII characters, not {@code "}, {@code \} or {@code ,}: a
 * UUID, a ULID or a hex digest fits, the key never needs escaping where it is shown or stored, and
 * a header sent twice (which HTTP lets a proxy join with a comma) never reads as one key.
 */
public record CallKey(String value) {

    public static final int MAX_LENGTH = 64;

    public CallKey {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
            throw invalid("is 1-" + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x21 || c > 0x7E || c == '"' || c == '\\' || c == ',') {
                throw invalid("is visible ASCII characters other than \", \\ and , (a UUID, for one)");
            }
        }
    }

    private static InvalidJobRequestException invalid(String rule) {
        return new InvalidJobRequestException("Idempotency-Key", "Idempotency-Key " + rule);
    }
}
