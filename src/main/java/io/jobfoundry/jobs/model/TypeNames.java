package io.jobfoundry.jobs.model;

import io.jobfoundry.jobs.records.JobKeys;

/** The rules for type names, job ids and the glob patterns processors accept by. */
public final class TypeNames {

    /** A type is {@code [A-Za-z0-9][A-Za-z0-9._-]{0,63}}, a glob may also hold {@code *} and {@code ?}. */
    static final int MAX_TYPE_LENGTH = 64;
    public static final int MAX_ID_LENGTH = 256;
    /**
     * An accept keeps the type, id and lease of every job it took (up to 100) in one outcome value,
     * which must stay under the stores' 100,000-byte value limit: 768 bytes an id (what 256 UTF-16
     * units could take) leaves room for 100.
     */
    public static final int MAX_ID_BYTES = 768;
    public static final int MAX_GROUP_LENGTH = 256;

    private TypeNames() {
    }

    public static void checkType(String type) {
        if (!isName(type, false)) {
            throw new InvalidJobRequestException("type",
                    "a type is 1-64 characters of [A-Za-z0-9._-] starting with a letter or digit, e.g. email.send");
        }
    }

    /**
     * Lengths count characters (code points), not UTF-16 units, and an id is also at most
     * {@value #MAX_ID_BYTES} bytes of UTF-8: 192 emoji are an id. A group is at most 1 KiB of
     * UTF-8, so even the longest index key ({@link JobKeys}, holding both) stays far below the
     * stores' key limit.
     */
    public static void checkId(String id) {
        if (id == null || id.isEmpty() || !isText(id, MAX_ID_LENGTH) || id.indexOf('/') >= 0
                || utf8Length(id) > MAX_ID_BYTES || id.equals(".") || id.equals("..")) {
            // '.' and '..' would be path segments that URLs remove: no request could name the job.
            throw new InvalidJobRequestException("id", "an id is 1-" + MAX_ID_LENGTH + " characters, at most "
                    + MAX_ID_BYTES + " bytes of UTF-8, without '/' or control characters, and not '.' or '..'");
        }
    }

    /** Bytes of UTF-8, counted without encoding: ids are checked on every request. */
    private static int utf8Length(String text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)) {
                bytes += 4;
                i++; // the pair is one character (isText refused an unpaired surrogate)
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    public static void checkGroup(String group) {
        if (group == null || !isText(group, MAX_GROUP_LENGTH)) {
            throw new InvalidJobRequestException("group",
                    "group is at most " + MAX_GROUP_LENGTH + " characters without control characters");
        }
    }

    public static void checkPattern(String pattern) {
        if (!isName(pattern, true)) {
            throw new InvalidJobRequestException("types",
                    "each entry is a type name or a glob of one with * and ?, e.g. \"email\" or \"Check*\"");
        }
    }

    /**
     * What the engine accepts by: a pattern {@link #checkPattern} passes, or an {@link #allOf}
     * pattern of such globs (a confined token's accept, narrowed). Requests are held to
     * {@link #checkPattern}: their patterns are narrowed, and the narrowing reads globs only.
     */
    public static void checkAcceptPattern(String pattern) {
        int start = 0;
        for (int end = pattern.indexOf(ALL_OF); end >= 0; start = end + 1, end = pattern.indexOf(ALL_OF, start)) {
            checkPattern(pattern.substring(start, end));
        }
        checkPattern(pattern.substring(start));
    }

    /**
     * Checked by hand rather than by a regular expression: every request names a type, and the
     * matcher was a percent of a {@code GET}'s CPU.
     */
    static boolean isName(String text, boolean glob) {
        if (text == null || text.isEmpty() || text.length() > MAX_TYPE_LENGTH) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || glob && (c == '*' || c == '?') || i > 0 && (c == '.' || c == '_' || c == '-');
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    public static boolean isGlob(String pattern) {
        return pattern.indexOf('*') >= 0 || pattern.indexOf('?') >= 0;
    }

    /**
     * The pattern of the names that match every one of {@code globs}: they joined by {@link #ALL_OF}.
     * Only {@link TypeScope#narrow} makes one, for two globs neither of which covers the other; no
     * request can send one, since {@code &} is no character of a name or a glob.
     */
    static String allOf(String... globs) {
        return String.join(String.valueOf(ALL_OF), globs);
    }

    static final char ALL_OF = '&';

    /**
     * Whether {@code name} matches {@code glob} ({@code *}: any run, {@code ?}: one character), or
     * every glob of an {@link #allOf} pattern.
     */
    public static boolean matches(String glob, String name) {
        int start = 0;
        for (int end = glob.indexOf(ALL_OF); end >= 0; start = end + 1, end = glob.indexOf(ALL_OF, start)) {
            if (!matches(glob, start, end, name)) {
                return false;
            }
        }
        return matches(glob, start, glob.length(), name);
    }

    /** Whether {@code name} matches the glob {@code pattern[from, to)}. */
    private static boolean matches(String pattern, int from, int to, String name) {
        int g = from;
        int n = 0;
        int starG = -1;
        int starN = 0;
        while (n < name.length()) {
            if (g < to && (pattern.charAt(g) == '?' || pattern.charAt(g) == name.charAt(n))) {
                g++;
                n++;
            } else if (g < to && pattern.charAt(g) == '*') {
                starG = g++;
                starN = n;
            } else if (starG >= 0) {
                g = starG + 1;
                n = ++starN;
            } else {
                return false;
            }
        }
        while (g < to && pattern.charAt(g) == '*') {
            g++;
        }
        return g == to;
    }

    /**
     * At most {@code max} characters, none a control and none half a surrogate pair: an unpaired
     * surrogate is no character, and the tuple layer, which stores keys as UTF-8, refuses it.
     */
    static boolean isText(String text, int max) {
        int count = 0;
        for (int i = 0; i < text.length(); i += Character.charCount(text.codePointAt(i))) {
            int c = text.codePointAt(i);
            if (Character.isISOControl(c) || Character.getType(c) == Character.SURROGATE || ++count > max) {
                return false;
            }
        }
        return true;
    }
}
