package io.jobfoundry.jobs.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CallKeyTest {

    @Test
    void aKeyIsOneToSixtyFourVisibleAsciiCharactersNoneOfThemQuotingOrSeparating() {
        assertEquals(64, new CallKey("k".repeat(64)).value().length());
        assertEquals("!#$%&'()*+-./:;<=>?@[]^_`{|}~", new CallKey("!#$%&'()*+-./:;<=>?@[]^_`{|}~").value());
        for (String bad : new String[] {"", "k".repeat(65), "two words", "quote\"d", "back\\slash", "tab\t", "a,b",
                "caf\u00e9"}) {
            InvalidJobRequestException refused = assertThrows(InvalidJobRequestException.class, () -> new CallKey(bad));
            assertEquals("Idempotency-Key", refused.field());
        }
    }
}
