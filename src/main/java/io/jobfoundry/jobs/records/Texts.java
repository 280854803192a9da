package io.jobfoundry.jobs.records;

/** Text the engine keeps within bounds (errors, in the record and its history). */
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
