package io.jobfoundry.repeat;

import io.jobfoundry.JobfoundryException;

/**
 * A repeat expression that cannot be used: it does not parse ({@link RepeatSyntaxException}), it
 * computes a time outside the range SQLite can represent ({@link RepeatRangeException}), or it
 * does not always move forward ({@link RepeatStallException}).
 *
 * <p>Both are the client's doing, so the API layer answers them with {@code 400}; {@link #detail()}
 * is the text for the problem document.
 */
public abstract sealed class RepeatException extends JobfoundryException
        permits RepeatSyntaxException, RepeatRangeException, RepeatStallException {

    RepeatException(String message) {
        super(message);
    }

    RepeatException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * A sentence for a problem document's {@code detail}: it names the offending part and says what
     * would be valid. It quotes only text the client sent, shortened and stripped of control
     * characters.
     */
    public abstract String detail();

    /** Quotes client text for {@link #detail()}: bounded in length and free of control characters. */
    static String quote(String text) {
        int max = 64;
        StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 3).append('\'');
        for (int i = 0; i < text.length() && i < max; i++) {
            char c = text.charAt(i);
            out.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        if (text.length() > max) {
            out.append('…');
        }
        return out.append('\'').toString();
    }
}
