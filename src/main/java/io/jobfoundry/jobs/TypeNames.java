package io.jobfoundry.jobs;

import java.util.regex.Pattern;

/** The rules for type names, job ids and the glob patterns processors accept by. */
public final class TypeNames {

    private static final Pattern TYPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern GLOB = Pattern.compile("[A-Za-z0-9*?][A-Za-z0-9._*?-]{0,63}");
    public static final int MAX_ID_LENGTH = 256;
    public static final int MAX_GROUP_LENGTH = 256;

    private TypeNames() {
    }

    public static void checkType(String type) {
        if (type == null || !TYPE.matcher(type).matches()) {
            throw new InvalidJobRequestException("type",
                    "a type is 1-64 characters of [A-Za-z0-9._-] starting with a letter or digit, e.g. email.send");
        }
    }

    public static void checkId(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_ID_LENGTH || id.indexOf('/') >= 0 || hasControl(id)) {
            throw new InvalidJobRequestException("id",
                    "an id is 1-" + MAX_ID_LENGTH + " characters without '/' or control characters");
        }
    }

    public static void checkGroup(String group) {
        if (group == null || group.length() > MAX_GROUP_LENGTH || hasControl(group)) {
            throw new InvalidJobRequestException("group",
                    "a group is at most " + MAX_GROUP_LENGTH + " characters without control characters");
        }
    }

    static void checkPattern(String pattern) {
        if (pattern == null || !GLOB.matcher(pattern).matches()) {
            throw new InvalidJobRequestException("types",
                    "each entry is a type name or a glob of one with * and ?, e.g. \"email\" or \"Check*\"");
        }
    }

    static boolean isGlob(String pattern) {
        return pattern.indexOf('*') >= 0 || pattern.indexOf('?') >= 0;
    }

    /** Whether {@code name} matches {@code glob} ({@code *}: any run, {@code ?}: one character). */
    static boolean matches(String glob, String name) {
        int g = 0;
        int n = 0;
        int starG = -1;
        int starN = 0;
        while (n < name.length()) {
            if (g < glob.length() && (glob.charAt(g) == '?' || glob.charAt(g) == name.charAt(n))) {
                g++;
                n++;
            } else if (g < glob.length() && glob.charAt(g) == '*') {
                starG = g++;
                starN = n;
            } else if (starG >= 0) {
                g = starG + 1;
                n = ++starN;
            } else {
                return false;
            }
        }
        while (g < glob.length() && glob.charAt(g) == '*') {
            g++;
        }
        return g == glob.length();
    }

    private static boolean hasControl(String text) {
        return text.chars().anyMatch(Character::isISOControl);
    }
}
