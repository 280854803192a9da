package io.jobfoundry.jobs.model;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;

/**
 * Where the service itself delivers a type's jobs (push delivery): each due job is POSTed to
 * {@code url}, which must answer within {@code timeout}; at most {@code concurrency} calls per
 * replica are in flight. Whether the url is allowed is the service's configuration, checked where
 * the setting comes in and again at each call, not here.
 */
public record PushTarget(String url, Duration timeout, int concurrency) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_CONCURRENCY = 10;
    public static final int MAX_CONCURRENCY = 1000;
    /** Long enough for any real endpoint with a query; short enough to keep a type's record small. */
    public static final int MAX_URL_LENGTH = 2048;
    public static final Duration SHORTEST_TIMEOUT = Duration.ofMillis(1);
    /** TypeSettings' longest duration, spelled out: TypeSettings holds a PushTarget, which must not reach back. */
    public static final Duration LONGEST_TIMEOUT = Duration.ofDays(365);

    public PushTarget {
        if (url == null || url.isEmpty() || url.length() > MAX_URL_LENGTH) {
            throw new InvalidJobRequestException("push.url", "push.url must be an http or https URL of at most "
                    + MAX_URL_LENGTH + " characters");
        }
        checkUrl(url);
        if (timeout == null || timeout.compareTo(SHORTEST_TIMEOUT) < 0 || timeout.compareTo(LONGEST_TIMEOUT) > 0) {
            throw new InvalidJobRequestException("push.timeout", "push.timeout must be within 0.001 s and 365 days");
        }
        if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
            throw new InvalidJobRequestException("push.concurrency",
                    "push.concurrency must be within 1.." + MAX_CONCURRENCY);
        }
    }

    /**
     * The url as logs show it: without its query, where an endpoint's key often travels
     * ({@code ?code=} of a serverless function), so that a log shipped elsewhere does not carry it.
     */
    public String loggedUrl() {
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query) + "?…";
    }

    /** Whether {@code uri} is an absolute http or https URL with a host: a target, or a prefix of the allow-list. */
    public static boolean httpWithHost(URI uri) {
        String scheme = uri.getScheme();
        return ("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) && uri.getHost() != null;
    }

    private static void checkUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new InvalidJobRequestException("push.url", "push.url is no URL: " + e.getReason());
        }
        if (!httpWithHost(uri) || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            // Credentials in the URL would be shown by GET /v1/types/{type}; a fragment is never sent.
            throw new InvalidJobRequestException("push.url",
                    "push.url must be an absolute http or https URL with a host, and no user info or fragment");
        }
        if (uri.getPort() == 0 || uri.getPort() > 65535) {
            throw new InvalidJobRequestException("push.url", "push.url's port must be within 1..65535");
        }
    }
}
