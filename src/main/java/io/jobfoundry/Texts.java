package io.jobfoundry;

/** Text kept within bounds: errors, in a job record and its history, and in a push call's lastError. */
public final class Texts {

    private Texts() {
    }

    /** The first {@code max} characters (code points: a cut never splits a surrogate pair). */
    public static String truncate(String text, int max) {
        if (text.length() <= max || text.codePointCount(0, text.length()) <= max) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, max));
    }
}
