package io.jobfoundry.push;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The allow-list: prefixes that end where a host, port or path segment ends, on the URL and its normalized form. */
class PushTargetsTest {

    @Test
    void aUrlMustStartWithAPrefixThatEndsAtABoundary() {
        PushTargets targets = new PushTargets(List.of(" https://api.example ", "http://10.0.0.7:8080/hooks/", ""));
        assertTrue(targets.configured());
        assertTrue(targets.allows("https://api.example"));
        assertTrue(targets.allows("https://api.example/run?x=1"));
        assertTrue(targets.allows("https://api.example:8443/run"));
        assertTrue(targets.allows("http://10.0.0.7:8080/hooks/email"));
        assertFalse(targets.allows("https://api.example.evil.net/"), "a longer host is another host");
        assertFalse(targets.allows("https://api.exampleX/"));
        assertFalse(targets.allows("http://10.0.0.7:8080/hooks/../admin"), "normalized, it leaves the prefix");
        assertFalse(targets.allows("http://10.0.0.7:8080/hooksy"));
        assertFalse(targets.allows("http://10.0.0.7:80801/hooks/"));
        assertFalse(targets.allows("http://api.example/"), "the scheme is part of the prefix");
        assertFalse(targets.allows("https://api.example/ bad"), "no URL");
    }

    /** A prefix no URL could start with (no scheme, another scheme, no host) stops the start, rather than admit nothing. */
    @Test
    void aPrefixThatIsNoHttpUrlIsRefused() {
        for (String prefix : List.of("notaurl", "hooks.example.com/", "ftp://hooks.example.com/", "https:///hooks",
                "https://hooks example/")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> new PushTargets(List.of("https://fine.example/", prefix)), prefix);
            assertTrue(refused.getMessage().contains("jobfoundry.push.allowed-targets: '" + prefix + "'"),
                    refused.getMessage());
        }
    }

    /** Servers that decode before they resolve dot segments see /hooks/%2e%2e/admin as /admin. */
    @Test
    void encodedDotsAndSlashesDoNotLeaveThePrefix() {
        PushTargets targets = new PushTargets(List.of("http://10.0.0.7:8080/hooks/"));
        assertFalse(targets.allows("http://10.0.0.7:8080/hooks/%2e%2e/admin"));
        assertFalse(targets.allows("http://10.0.0.7:8080/hooks/%2E%2E/admin"));
        assertFalse(targets.allows("http://10.0.0.7:8080/hooks/.%2e/admin"));
        assertFalse(targets.allows("http://10.0.0.7:8080/hooks/..%2fadmin"));
        assertFalse(targets.allows("http://10.0.0.7:8080/hooks/..%5Cadmin"));
        assertTrue(targets.allows("http://10.0.0.7:8080/hooks/a%2Fb"), "a slash that stays under the prefix");
        assertTrue(targets.allows("http://10.0.0.7:8080/hooks/report%2Ecsv?next=%2F..%2F"));
    }

    /** Servlet containers drop a segment's parameters before they resolve it: /hooks/..;/admin is /admin there. */
    @Test
    void pathParametersDoNotHideADotSegment() {
        PushTargets targets = new PushTargets(List.of("http://10.0.0.7:8080/hooks/"));
        assertFalse(targets.allows("http://10.0.0.7:8080/hooks/..;/admin"));
        assertFalse(targets.allows("http://10.0.0.7:8080/hooks/..;x=1/admin"));
        assertFalse(targets.allows("http://10.0.0.7:8080/hooks/.%2e;/admin"));
        assertTrue(targets.allows("http://10.0.0.7:8080/hooks/run;v=2"), "a parameter that stays under the prefix");
        assertTrue(targets.allows("http://10.0.0.7:8080/hooks/run?a=..;/b"), "a query is no path");
    }

    @Test
    void aPortMayFollowAnIpv6HostButNotAPortOrAPath() {
        PushTargets targets = new PushTargets(List.of("http://[::1]", "http://[fd00::7]:8080", "https://api.example/v1"));
        assertTrue(targets.allows("http://[::1]/x"));
        assertTrue(targets.allows("http://[::1]:8443/run"));
        assertTrue(targets.allows("http://[fd00::7]:8080/run"));
        assertFalse(targets.allows("http://[fd00::7]:80801/run"), "a longer port is another port");
        assertFalse(targets.allows("https://api.example/v1:8443"), "a colon after a path is no port");
        assertTrue(targets.allows("https://api.example/v1/run"));
    }

    @Test
    void withNoPrefixNothingIsAllowedAndTheRefusalSaysWhatToConfigure() {
        PushTargets none = new PushTargets(List.of());
        assertFalse(none.configured());
        assertFalse(none.allows("https://api.example/"));
        assertTrue(none.refusal().contains("jobfoundry.push.allowed-targets"));
    }
}
