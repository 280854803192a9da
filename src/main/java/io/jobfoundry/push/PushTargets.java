package io.jobfoundry.push;

import io.jobfoundry.jobs.model.PushTarget;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

/**
 * The allow-list of push targets: URL prefixes a type's {@code push.url} must start with, checked
 * where the setting comes in and again before every call (the list may have changed since).
 */
public final class PushTargets {

    private final List<String> prefixes;

    /**
     * @throws IllegalArgumentException for a prefix that is not an {@code http://} or
     *     {@code https://} URL with a host: one without a scheme would admit no target, silently
     */
    public PushTargets(List<String> prefixes) {
        this.prefixes = prefixes.stream().map(String::trim).filter(p -> !p.isEmpty()).toList();
        for (String prefix : this.prefixes) {
            if (!isHttpUrl(prefix)) {
                throw new IllegalArgumentException("invalid configuration: jobfoundry.push.allowed-targets: '" + prefix
                        + "' is not an http:// or https:// URL with a host, e.g. https://hooks.example.com/");
            }
        }
    }

    private static boolean isHttpUrl(String prefix) {
        try {
            return PushTarget.httpWithHost(new URI(prefix));
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** How many prefixes are allowed. */
    public int size() {
        return prefixes.size();
    }

    /** True if push delivery is configured at all. */
    public boolean configured() {
        return !prefixes.isEmpty();
    }

    /**
     * Whether {@code url} is under an allowed prefix. Its resolved form must be too, so that
     * {@code /hooks/../admin} does not pass as under {@code /hooks/}; and a prefix that does not end
     * with {@code /} must end where the URL's host, port or path segment ends, so that
     * {@code https://api.example} does not admit {@code https://api.example.evil.net/}.
     */
    public boolean allows(String url) {
        String resolved;
        try {
            String decoded = ENCODED_SEPARATORS.matcher(url).replaceAll(PushTargets::decoded);
            resolved = new URI(withoutPathParameters(decoded)).normalize().toString();
        } catch (URISyntaxException e) {
            return false;
        }
        return prefixes.stream().anyMatch(prefix -> under(url, prefix) && under(resolved, prefix));
    }

    /**
     * Percent-encoded dots, slashes and backslashes. Many servers and proxies decode them before they
     * resolve dot segments, so {@code /hooks/%2e%2e/admin} or {@code /hooks/..%2fadmin} reaches
     * {@code /admin} there: the check resolves the URL as such a server would.
     */
    private static final Pattern ENCODED_SEPARATORS = Pattern.compile("%(2[eEfF]|5[cC])");

    private static String decoded(MatchResult escape) {
        return switch (escape.group(1).toLowerCase(Locale.ROOT)) {
            case "2e" -> ".";
            default -> "/"; // %2F, and %5C, which some servers take for a slash
        };
    }

    /**
     * The URL without the parameters of its path segments ({@code ;jsessionid=…}): servlet
     * containers drop them before they resolve dot segments, so {@code /hooks/..;/admin} reaches
     * {@code /admin} on Tomcat or Jetty.
     */
    private static String withoutPathParameters(String url) {
        int query = url.indexOf('?');
        String path = query < 0 ? url : url.substring(0, query);
        return PATH_PARAMETERS.matcher(path).replaceAll("") + (query < 0 ? "" : url.substring(query));
    }

    private static final Pattern PATH_PARAMETERS = Pattern.compile(";[^/]*");

    private static boolean under(String url, String prefix) {
        if (!url.startsWith(prefix)) {
            return false;
        }
        if (url.length() == prefix.length() || prefix.endsWith("/") || prefix.endsWith("?")) {
            return true;
        }
        char next = url.charAt(prefix.length());
        if (next == '/' || next == '?') {
            return true;
        }
        // A port may follow a prefix that is a scheme and host alone, without a port of its own
        // (an IPv6 literal's colons are inside its brackets).
        String authority = prefix.substring(prefix.indexOf("//") + 2);
        boolean hasPort = authority.lastIndexOf(':') > authority.lastIndexOf(']');
        return next == ':' && authority.indexOf('/') < 0 && !hasPort;
    }

    /** Why {@code url} is refused, for a client; names the setting, not the list. */
    public String refusal() {
        return configured()
                ? "push.url must start with one of the allowed targets (jobfoundry.push.allowed-targets)"
                : "push delivery is off: no jobfoundry.push.allowed-targets is configured";
    }
}
