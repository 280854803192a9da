package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.model.TypeForbiddenException;
import io.jobfoundry.jobs.model.TypeScope;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An accept's types under a scope: never wider than the scope, as wide as a glob can say. */
class TypeScopeNarrowTest {

    private static final List<String> KNOWN = List.of("email", "email_high", "email-bulk", "billing", "billing_high");

    private static List<String> narrow(List<String> scope, List<String> requested) {
        return TypeScope.of(scope).narrow(requested, () -> KNOWN);
    }

    @Test
    void everyTypeBecomesTheScope() {
        assertEquals(List.of("email*"), narrow(List.of("email*"), List.of("*")));
        assertEquals(List.of("*"), TypeScope.all().narrow(List.of("*"), () -> KNOWN));
    }

    @Test
    void aNarrowerGlobOrANameInsideStays() {
        assertEquals(List.of("email-*", "email"), narrow(List.of("email*"), List.of("email-*", "email")));
    }

    @Test
    void globsThatOverlapWithoutCoveringBecomeTheKnownTypesInBoth() {
        assertEquals(List.of("email_high"), narrow(List.of("email*"), List.of("*_high")));
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
