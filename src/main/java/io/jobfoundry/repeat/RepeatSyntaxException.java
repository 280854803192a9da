package io.jobfoundry.repeat;

import java.util.List;

/**
 * A repeat expression that does not parse.
 *
 * <p>The message is a fixed phrase ({@code "unknown unit"}); the variable parts are fields: the
 * {@link #offendingPart() offending part} as the client wrote it (the whole input, the base, one
 * modifier or the cron expression) and a few {@link #examples() valid examples} of what belongs
 * there, in the manner of db-scheduler's parser errors.
 */
public final class RepeatSyntaxException extends RepeatException {

    private final String offendingPart;
    private final List<String> examples;

    RepeatSyntaxException(String message, String offendingPart, List<String> examples) {
        this(message, offendingPart, examples, null);
    }

    RepeatSyntaxException(String message, String offendingPart, List<String> examples, Throwable cause) {
        super(message, cause);
        this.offendingPart = offendingPart;
        this.examples = List.copyOf(examples);
    }

    /** The part of the input that is wrong, as written (may be long: {@link #detail()} shortens it). */
    public String offendingPart() {
        return offendingPart;
    }

    /** Valid expressions or modifiers of the kind that was expected at the offending part. */
    public List<String> examples() {
        return examples;
    }

    /**
     * E.g. {@code unknown unit in '+1 FORTNIGHT'; valid examples: "+1 HOUR", "-30 MINUTES", ...}:
     * each example quoted, since examples hold commas themselves.
     */
    @Override
    public String detail() {
        return getMessage() + " in " + quote(offendingPart) + "; valid examples: " + quoted(examples);
    }

    private static String quoted(List<String> examples) {
        StringBuilder text = new StringBuilder();
        for (String example : examples) {
            text.append(text.isEmpty() ? "" : ", ").append('"').append(example).append('"');
        }
        return text.toString();
    }
}
