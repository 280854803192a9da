package io.jobfoundry.jobs.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A push target is checked where the setting comes in: a URL no call could be made to is a 400, not a failing call. */
class PushTargetTest {

    @Test
    void aPortOutsideOneTo65535IsRefused() {
        for (String url : new String[] {"http://localhost:99999/x", "http://localhost:65536/x", "https://localhost:0/x"}) {
            InvalidJobRequestException refused = assertThrows(InvalidJobRequestException.class,
                    () -> new PushTarget(url, Duration.ofSeconds(5), 1), url);
            assertEquals("push.url's port must be within 1..65535", refused.getMessage());
        }
        assertEquals(65535, java.net.URI.create(new PushTarget("http://localhost:65535/x", Duration.ofSeconds(5), 1).url())
                .getPort());
        new PushTarget("https://example.org/hooks", Duration.ofSeconds(5), 1); // no port: the scheme's
    }

    /** A serverless endpoint's key often rides in the query: logs, shipped elsewhere, leave it out. */
    @Test
    void theLoggedUrlLeavesTheQueryOut() {
        assertEquals("https://fn.example.net/api/send?…",
                new PushTarget("https://fn.example.net/api/send?code=s3cret&x=1", Duration.ofSeconds(5), 1).loggedUrl());
        assertEquals("https://fn.example.net/api/send",
                new PushTarget("https://fn.example.net/api/send", Duration.ofSeconds(5), 1).loggedUrl());
    }
}
