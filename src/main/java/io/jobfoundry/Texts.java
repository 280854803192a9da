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

    /**
     * {@code text} with the characters that do not show as themselves in a log line written as a
     * backslash, {@code u} and four hex digits: controls, line and paragraph separators (U+2028, U+2029, which some viewers
     * break lines at), and format characters such as the bidirectional overrides (U+202E), which
     * reorder what follows them on screen. Ids and groups may hold any of these but controls.
     */
    public static String visible(String text) {
        StringBuilder shown = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int kind = Character.getType(c);
            boolean hidden = Character.isISOControl(c) || kind == Character.LINE_SEPARATOR
                    || kind == Character.PARAGRAPH_SEPARATOR || kind == Character.FORMAT;
            if (hidden && shown == null) {
                shown = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (hidden) {
                shown.append(String.format("\\u%04X", (int) c));
            } else if (shown != null) {
                shown.append(c);
            }
        }
        return shown == null ? text : shown.toString();
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
