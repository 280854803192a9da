package io.jobfoundry.jobs.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An accept's types under a scope: never wider than the scope, as wide as a glob can say. */
class TypeScopeNarrowTest {

    private static List<String> narrow(List<String> scope, List<String> requested) {
        return TypeScope.of(scope).narrow(requested);
    }

    @Test
    void everyTypeBecomesTheScope() {
        assertEquals(List.of("email*"), narrow(List.of("email*"), List.of("*")));
        assertEquals(List.of("*"), TypeScope.all().narrow(List.of("*")));
    }

    @Test
    void aNarrowerGlobOrANameInsideStays() {
        assertEquals(List.of("email-*", "email"), narrow(List.of("email*"), List.of("email-*", "email")));
    }

    @Test
    void globsThatOverlapWithoutCoveringBecomeThePatternOfTheNamesBothMatchWhetherOrNotOneExists() {
        List<String> narrowed = narrow(List.of("email*"), List.of("*_high"));
        assertEquals(1, narrowed.size(), narrowed.toString());
        String pattern = narrowed.get(0);
        assertTrue(TypeNames.isGlob(pattern));
        for (String name : List.of("email_high", "emailx_high", "email_high_high")) {
            assertTrue(TypeNames.matches(pattern, name), name);
        }
        for (String name : List.of("email", "email_low", "billing_high", "_high")) {
            assertFalse(TypeNames.matches(pattern, name), name);
        }
        assertThrows(InvalidJobRequestException.class, () -> TypeNames.checkPattern(pattern),
                "no request can send the pattern itself");
    }

    /** Two globs over {a, b} overlap exactly when some name of up to 7 characters matches both (brute force). */
    @Test
    void overlapIsExactAgainstEveryShortName() {
        List<String> globs = new ArrayList<>();
        List<String> names = new ArrayList<>(List.of(""));
        words("ab?*", 3, "", globs);
        words("ab", 7, "", names);
        for (String a : globs) {
            for (String b : globs) {
                boolean both = names.stream().anyMatch(n -> TypeNames.matches(a, n) && TypeNames.matches(b, n));
                assertEquals(both, TypeScope.overlap(a, b), a + " and " + b);
            }
        }
    }

    private static void words(String alphabet, int maxLength, String prefix, List<String> into) {
        if (prefix.length() == maxLength) {
            return;
        }
        for (char c : alphabet.toCharArray()) {
            into.add(prefix + c);
            words(alphabet, maxLength, prefix + c, into);
        }
    }

    /** a*a covers a*&*a read as one glob, which as the names both match takes "a": outside the scope. */
    @Test
    void anAllOfPatternIsNoRequestsToNarrow() {
        assertThrows(InvalidJobRequestException.class, () -> narrow(List.of("a*a"), List.of("a*&*a")));
        assertThrows(InvalidJobRequestException.class, () -> TypeScope.all().narrow(List.of("a*&*a")), "nor every type's");
    }

    @Test
    void nothingInsideTheScopeIsRefused() {
        assertThrows(TypeForbiddenException.class, () -> narrow(List.of("email*"), List.of("billing")));
        assertThrows(TypeForbiddenException.class, () -> narrow(List.of("email*"), List.of("bill*")));
        assertThrows(TypeForbiddenException.class, () -> narrow(List.of("email*"), List.of("email", "billing")));
    }

    @Test
    void permitsIsTheGlobMatch() {
        TypeScope scope = TypeScope.of(List.of("email*", "sms"));
        assertTrue(scope.permits("email-bulk"));
        assertTrue(scope.permits("sms"));
        assertFalse(scope.permits("sms2"));
        assertFalse(TypeScope.none().permits("email"));
    }
}
