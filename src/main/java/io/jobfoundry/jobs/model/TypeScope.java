package io.jobfoundry.jobs.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The types a caller may touch: every type, or those matching one of its globs ({@code *} any
 * run, {@code ?} one character, as in accepts). The engine's scoped view ({@code ScopedJobs})
 * checks every entry point against it, so that a confined token can neither change nor learn of
 * a job of another type, whichever resource it came through.
 */
public final class TypeScope {

    private static final TypeScope ALL = new TypeScope(null);
    private static final TypeScope NONE = new TypeScope(List.of());

    /** Null: every type. */
    private final List<String> globs;

    private TypeScope(List<String> globs) {
        this.globs = globs;
    }

    /** Every type: what an unconfined token, and the engine used directly, may touch. */
    public static TypeScope all() {
        return ALL;
    }

    /** No type at all: what a caller without a known scope gets, so that a gap in wiring refuses. */
    public static TypeScope none() {
        return NONE;
    }

    /** The types matching one of {@code globs}; each is a type name or a glob of one. */
    public static TypeScope of(List<String> globs) {
        for (String glob : globs) {
            TypeNames.checkPattern(glob);
        }
        return globs.isEmpty() ? NONE : new TypeScope(List.copyOf(globs));
    }

    public boolean isAll() {
        return globs == null;
    }

    /** The globs, or null for every type. */
    public List<String> globs() {
        return globs;
    }

    public boolean permits(String type) {
        if (globs == null) {
            return true;
        }
        for (String glob : globs) {
            if (glob.equals(type) || TypeNames.isGlob(glob) && TypeNames.matches(glob, type)) {
                return true;
            }
        }
        return false;
    }

    /** @throws TypeForbiddenException if {@code type} is outside this scope */
    public void check(String type) {
        if (!permits(type)) {
            throw new TypeForbiddenException(type);
        }
    }

    /**
     * The patterns an accept for {@code requested} may use under this scope: their intersection
     * with the scope's globs. An exact name outside the scope is refused; a glob that the scope
     * covers stays; a glob that covers a scope glob becomes that glob (a worker for {@code email*}
     * asking for {@code *} accepts {@code email*}); two globs that share names without either
     * covering the other ({@code *_high} and {@code email*}) become the pattern of the names both
     * match ({@link TypeNames#allOf}), so a type first used later, while the accept waits or after
     * the worker started, is served as with any glob. The result is never wider than the scope.
     *
     * @throws InvalidJobRequestException for a pattern that is no name or glob
     * @throws TypeForbiddenException if no name the request could ask for is within the scope
     */
    public List<String> narrow(List<String> requested) {
        // Names and globs only, from any caller: the engine's allOf patterns are made here, and
        // covers() and overlap() read & as a character, so one let in could come out wider than
        // the scope.
        requested.forEach(TypeNames::checkPattern);
        if (globs == null) {
            return requested;
        }
        Set<String> narrowed = new LinkedHashSet<>();
        for (String pattern : requested) {
            if (!TypeNames.isGlob(pattern)) {
                check(pattern);
                narrowed.add(pattern);
                continue;
            }
            for (String glob : globs) {
                if (covers(glob, pattern)) {
                    narrowed.add(pattern);
                } else if (covers(pattern, glob)) {
                    narrowed.add(glob);
                } else if (overlap(pattern, glob)) {
                    narrowed.add(TypeNames.allOf(pattern, glob));
                }
            }
        }
        if (narrowed.isEmpty()) {
            throw new TypeForbiddenException(requested.get(0));
        }
        return new ArrayList<>(narrowed);
    }

    /**
     * Whether some name matches both globs (or names): the two read side by side, a {@code *}
     * of either taking nothing, or a character with the other's symbol, a {@code ?} any one, a
     * literal only itself. A name of the characters written in them stays a name; past 64
     * characters it would not, which only globs no accept would send can reach.
     */
    static boolean overlap(String a, String b) {
        int m = a.length();
        int n = b.length();
        boolean[][] can = new boolean[m + 1][n + 1];
        can[m][n] = true;
        for (int i = m; i >= 0; i--) {
            for (int j = n; j >= 0; j--) {
                if (i == m && j == n) {
                    continue;
                }
                char x = i < m ? a.charAt(i) : 0;
                char y = j < n ? b.charAt(j) : 0;
                boolean result = x == '*' && can[i + 1][j] || y == '*' && can[i][j + 1];
                if (!result && i < m && j < n && (x == y || x == '?' || y == '?' || x == '*' || y == '*')) {
                    // One character both take: a star stays where it is, any other symbol moves on.
                    int ni = x == '*' ? i : i + 1;
                    int nj = y == '*' ? j : j + 1;
                    result = (ni != i || nj != j) && can[ni][nj];
                }
                can[i][j] = result;
            }
        }
        return can[0][0];
    }

    /**
     * Whether every name {@code inner} matches, {@code outer} matches too: {@code outer} matched
     * against {@code inner}'s symbols, its {@code *} taking any run of them, its {@code ?} one that
     * is not {@code *}, a literal only itself. Sound (true only when it holds), which is what a
     * scope needs: a false "no" merely narrows an accept to the known types.
     */
    static boolean covers(String outer, String inner) {
        int o = outer.length();
        int n = inner.length();
        boolean[][] can = new boolean[o + 1][n + 1];
        can[o][n] = true;
        for (int i = o - 1; i >= 0; i--) {
            char c = outer.charAt(i);
            for (int j = n; j >= 0; j--) {
                if (c == '*') {
                    can[i][j] = can[i + 1][j] || j < n && can[i][j + 1];
                } else if (j < n) {
                    char d = inner.charAt(j);
                    boolean one = c == '?' ? d != '*' : c == d;
                    can[i][j] = one && can[i + 1][j + 1];
                }
            }
        }
        return can[0][0];
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TypeScope scope && java.util.Objects.equals(globs, scope.globs);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hashCode(globs);
    }

    @Override
    public String toString() {
        return globs == null ? "every type" : String.join(",", globs);
    }
}
