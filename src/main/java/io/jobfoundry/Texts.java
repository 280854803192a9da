package io.jobfoundry;

/** Text kept within bounds (errors, in a job record, its history and a push call's lastError) and checked whole. */
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

    /** Whether {@code text} holds a surrogate not in a pair: no Unicode text, and nothing the store can keep. */
    public static boolean hasLoneSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
