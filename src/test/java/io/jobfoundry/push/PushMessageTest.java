package io.jobfoundry.push;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The Jobfoundry-Id header names the job exactly, whatever characters its id holds. */
class PushMessageTest {

    @Test
    void anIdOfVisibleAsciiGoesAsItIsAndASpaceAPercentOrAnyOtherCharacterIsEncoded() {
        assertEquals("welcome-42", PushMessage.headerText("welcome-42"));
        assertEquals("a;c=d\"e", PushMessage.headerText("a;c=d\"e"));
        assertEquals("%20sp2%20", PushMessage.headerText(" sp2 "), "a receiver would trim the spaces");
        assertEquals("100%25", PushMessage.headerText("100%"));
        assertEquals("%C3%A9%F0%9F%98%80%C4%8A", PushMessage.headerText("\u00e9\uD83D\uDE00\u010A"));
        // Ids that differ only outside Latin-1 used to arrive as the same "???".
        for (String id : new String[] {"\u00e9\uD83D\uDE00\u010A", "\u00e9\uD83D\uDE01\u010A", "x%2Fy", "tab\u00a0", " a b "}) {
            String sent = PushMessage.headerText(id);
            assertEquals(id, URLDecoder.decode(sent, StandardCharsets.UTF_8), sent);
        }
    }
}
