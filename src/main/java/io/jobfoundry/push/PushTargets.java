package io.jobfoundry.push;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;

/**
 * The allow-list of push targets: URL prefixes a type's {@code push.url} must start with, checked
 * where the setting comes in and again before every call (the list may have changed since).
 */
public final class PushTargets {

    private final List<String> prefixes;

    public PushTargets(List<String> prefixes) {
        this.prefixes = prefixes.stream().map(String::trim).filter(p -> !p.isEmpty()).toList();
    }

    /** True if push delivery is configured at all. */
    public boolean configured() {
        return !prefixes.isEmpty();
    }

    /**
     * Whether {@code url} is under an allowed prefix. Its normalized form must be too, so that
     * {@code /hooks/../admin} does not pass as under {@code /hooks/}; and a prefix that does not end
     * with {@code /} must end where the URL's host or path segment ends, so that
     * {@code https://api.example} does not admit {@code https://api.example.evil.net/}.
     */
    public boolean allows(String url) {
        String normalized;
        try {
            normalized = new URI(url).normalize().toString();
        } catch (URISyntaxException e) {
            return false;
        }
        return prefixes.stream().anyMatch(prefix -> under(url, prefix) && under(normalized, prefix));
    }

    private static boolean under(String url, String prefix) {
        if (!url.startsWith(prefix)) {
            return false;
        }
        if (url.length() == prefix.length() || prefix.endsWith("/") || prefix.endsWith("?")) {
            return true;
        }
        char next = url.charAt(prefix.length());
        return next == '/' || next == '?' || next == ':' && !prefix.substring(prefix.indexOf("//") + 2).contains(":");
    }

    /** Why {@code url} is refused, for a client; names the setting, not the list. */
    public String refusal() {
        return configured()
                ? "push.url must start with one of the allowed targets (jobfoundry.push.allowed-targets)"
                : "push delivery is off: no jobfoundry.push.allowed-targets is configured";
    }
}
