package io.jobfoundry.jobs.model;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TypeNamesTest {

    /** The rules as API.md states them; the hand-written checks must agree on every string. */
    private static final Pattern TYPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern GLOB = Pattern.compile("[A-Za-z0-9*?][A-Za-z0-9._*?-]{0,63}");
    private static final String ALPHABET = "aZ09._-*?/ é\u0000\u0660";

    @Test
    void typeAndGlobChecksAgreeWithTheirRules() {
        SplittableRandom random = new SplittableRandom(27);
        for (int i = 0; i < 50_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(i % 10 == 0 ? 70 : 6);
            for (int j = 0; j < length; j++) {
                text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            String s = text.toString();
            assertEquals(TYPE.matcher(s).matches(), TypeNames.isName(s, false), () -> "type " + s);
            assertEquals(GLOB.matcher(s).matches(), TypeNames.isName(s, true), () -> "glob " + s);
        }
    }

    @Test
    void refusesWithTheFieldNamed() {
        assertDoesNotThrow(() -> TypeNames.checkType("email.send_v2-eu"));
        assertDoesNotThrow(() -> TypeNames.checkType("a".repeat(64)));
        for (String bad : new String[] {null, "", ".email", "-x", "email/send", "a".repeat(65), "e*"}) {
            InvalidJobRequestException e = assertThrows(InvalidJobRequestException.class, () -> TypeNames.checkType(bad));
            assertEquals("type", e.field());
        }
        assertDoesNotThrow(() -> TypeNames.checkPattern("*"));
        assertDoesNotThrow(() -> TypeNames.checkPattern("email.?end*"));
        InvalidJobRequestException e = assertThrows(InvalidJobRequestException.class, () -> TypeNames.checkPattern(".x"));
        assertEquals("types", e.field());
    }
}
