package io.jobfoundry.auth;

import io.quarkus.vertx.http.runtime.ForwardedInfo;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.HostAndPort;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.impl.SocketAddressImpl;
import io.vertx.ext.web.RoutingContext;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Whether a request comes from this machine and is meant for it: the only requests protected mode
 * serves. A loopback peer alone is not enough, because a browser on this machine is a loopback peer
 * for every page it shows:
 * <ul>
 * <li>a page of {@code attacker.example}, whose name the attacker makes resolve to 127.0.0.1 (DNS
 * rebinding), reaches the port as its own origin and reads the answers; its requests still carry
 * {@code Host: attacker.example}, so the Host must name a loopback host;
 * <li>a page of any other site may make the browser send a "simple" request (a {@code POST} without
 * a body, a form) with no CORS preflight: it cannot read the answer, but the pause or cancel is
 * done. The browser names the page's origin in {@code Origin} (on every {@code POST}, {@code PUT},
 * {@code PATCH} and {@code DELETE} it sends), so an Origin must be this service's own.
 * </ul>
 * Clients that are not browsers ({@code curl}, {@code kubectl port-forward}, client libraries) send
 * the Host they connected to and no Origin; the dashboard, served from here, sends its own origin.
 * None of them sends a proxy's headers: a request that carries them was relayed for a client that
 * may be anywhere, or was made by a page that added them to pass for one (see {@link Verdict#PROXIED}).
 */
public final class Loopback {

    /** What the request is, in the order the checks are made. */
    public enum Verdict {
        /** Served: a loopback peer, a loopback Host and, if any, its own Origin. */
        LOCAL,
        /** The socket's peer is not a loopback address. */
        REMOTE_PEER,
        /** The Host header does not name a loopback host (DNS rebinding, or a proxy's public name). */
        HOST_NOT_LOOPBACK,
        /**
         * The request carries a proxy's headers ({@code Forwarded}, {@code X-Forwarded-For},
         * {@code X-Forwarded-Host}, {@code X-Real-IP}), or Quarkus' proxy settings put a forwarded
         * host in place of its Host: it was relayed for a client that may not be on this machine, and
         * with those settings on, the Host the client sent is unknown.
         */
        PROXIED,
        /** The Origin header is not the Host's origin: sent for another site's page, or {@code null}. */
        OTHER_ORIGIN
    }

    private static final String VERDICT_KEY = Loopback.class.getName() + ".verdict";
    private static final CharSequence FORWARDED = HttpHeaders.createOptimized("Forwarded");
    private static final CharSequence X_FORWARDED_FOR = HttpHeaders.createOptimized("X-Forwarded-For");
    private static final CharSequence X_FORWARDED_HOST = HttpHeaders.createOptimized("X-Forwarded-Host");
    private static final CharSequence X_REAL_IP = HttpHeaders.createOptimized("X-Real-IP");

    private Loopback() {
    }

    public static boolean is(RoutingContext ctx) {
        return verdict(ctx) == Verdict.LOCAL;
    }

    /**
     * The request's verdict, kept in its routing context: protected mode's route and then the
     * authentication mechanism both ask for every request, and nothing the verdict reads (the
     * connection, the headers, the forwarded host Quarkus applied before any route) changes between.
     */
    public static Verdict verdict(RoutingContext ctx) {
        Verdict verdict = ctx.get(VERDICT_KEY);
        if (verdict == null) {
            verdict = judge(ctx);
            ctx.put(VERDICT_KEY, verdict);
        }
        return verdict;
    }

    private static Verdict judge(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        // The socket's own peer: request.remoteAddress() is, behind Quarkus' proxy settings
        // (proxy-address-forwarding), whatever X-Forwarded-For or Forwarded says, and any client
        // can send X-Forwarded-For: 127.0.0.1.
        if (!isLoopbackPeer(request.connection().remoteAddress())) {
            return Verdict.REMOTE_PEER;
        }
        if (carriesProxyHeaders(request) || hostWasForwarded()) {
            return Verdict.PROXIED;
        }
        HostAndPort host = host(request);
        if (host == null || !isLoopbackHost(host.host())) {
            return Verdict.HOST_NOT_LOOPBACK;
        }
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin != null && !sameOrigin(origin, host, request.connection().isSsl())) {
            return Verdict.OTHER_ORIGIN;
        }
        return Verdict.LOCAL;
    }

    /**
     * The headers a proxy adds to name the client or the host it relays for. Judged by their
     * presence, whatever Quarkus' proxy settings make of them: with those settings on, Quarkus
     * rewrites the Host header itself before any route runs, and which header it took the host from
     * is not always recorded (with both {@code allow-forwarded} and {@code allow-x-forwarded}, a
     * {@code Forwarded: host=} replaced the Host while {@link ForwardedInfo} named no host). The
     * rebinding attacker's page is same-origin to itself and may send any of them.
     */
    private static boolean carriesProxyHeaders(HttpServerRequest request) {
        MultiMap headers = request.headers();
        return headers.contains(FORWARDED) || headers.contains(X_FORWARDED_FOR) || headers.contains(X_FORWARDED_HOST)
                || headers.contains(X_REAL_IP)
                || ForwardedHostHeader.RENAMED != null && headers.contains(ForwardedHostHeader.RENAMED);
    }

    /**
     * The header Quarkus takes a forwarded host from when {@code quarkus.http.proxy.forwarded-host-header}
     * renames X-Forwarded-Host (null when it does not), read once, at the first request: a renamed
     * one is a proxy's header too.
     */
    private static final class ForwardedHostHeader {
        static final CharSequence RENAMED = ConfigProvider.getConfig()
                .getOptionalValue("quarkus.http.proxy.forwarded-host-header", String.class)
                .filter(name -> !name.equalsIgnoreCase("X-Forwarded-Host")).map(HttpHeaders::createOptimized)
                .orElse(null);
    }

    /**
     * A host Quarkus' proxy settings applied, as recorded in the request's {@link ForwardedInfo}:
     * kept beside the headers' check, should Quarkus take a host from elsewhere.
     */
    private static boolean hostWasForwarded() {
        Context context = Vertx.currentContext();
        ForwardedInfo forwarded = context == null ? null : context.getLocal(ForwardedInfo.CONTEXT_KEY);
        return forwarded != null && forwarded.getHost() != null;
    }

    /**
     * The host the client named: HTTP/2's {@code :authority} (Vert.x's "real" authority), else the
     * {@code Host} header. Not {@code authority()} or {@code host()}: behind Quarkus' proxy settings
     * they are the forwarded host (and a request that has one is {@link Verdict#PROXIED}).
     */
    public static HostAndPort host(HttpServerRequest request) {
        if (request.version() == HttpVersion.HTTP_2) {
            HostAndPort authority = request.authority(true);
            if (authority != null) {
                return authority;
            }
        }
        String header = request.getHeader(HttpHeaders.HOST);
        return header == null ? null : HostAndPort.parseAuthority(header.trim(), -1);
    }

    private static boolean isLoopbackPeer(SocketAddress remote) {
        if (remote instanceof SocketAddressImpl inet && inet.ipAddress() != null) {
            return inet.ipAddress().isLoopbackAddress(); // the socket's own address, not its text
        }
        if (remote == null || !remote.isInetSocket() || remote.hostAddress() == null) {
            return false;
        }
        try {
            // A numeric address: parsed, never looked up.
            return InetAddress.getByName(remote.hostAddress()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * {@code localhost}, a name under {@code .localhost} (both resolved to loopback by browsers and
     * resolvers themselves, RFC 6761, so no one can rebind them), an address in 127.0.0.0/8 in
     * dotted decimal, or a bracketed IPv6 loopback literal. Nothing is looked up: a name that merely
     * resolves to loopback is exactly the rebinding case.
     */
    static boolean isLoopbackHost(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        if (name.equals("localhost") || name.endsWith(".localhost") && name.length() > ".localhost".length()) {
            return true;
        }
        if (name.startsWith("[") && name.endsWith("]")) {
            return isLoopbackLiteral(name);
        }
        return isLoopbackDottedQuad(name);
    }

    private static boolean isLoopbackLiteral(String bracketed) {
        for (int i = 1; i < bracketed.length() - 1; i++) {
            char c = bracketed.charAt(i);
            if (Character.digit(c, 16) < 0 && c != ':' && c != '.') {
                return false; // a zone id (%25…) or anything else: not the plain literal browsers send
            }
        }
        try {
            // Bracketed hex and colons: InetAddress parses it as an IPv6 literal or fails, never looks it up.
            return InetAddress.getByName(bracketed).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Four parts of one to three ASCII digits, each at most 255, the first 127. */
    private static boolean isLoopbackDottedQuad(String name) {
        int parts = 0;
        int first = -1;
        int i = 0;
        while (i <= name.length()) {
            int value = 0;
            int digits = 0;
            for (; i < name.length() && name.charAt(i) != '.'; i++) {
                char c = name.charAt(i);
                if (c < '0' || c > '9' || ++digits > 3) {
                    return false;
                }
                value = value * 10 + (c - '0');
            }
            if (digits == 0 || value > 255 || ++parts > 4) {
                return false;
            }
            if (first < 0) {
                first = value;
            }
            i++; // past the dot, or past the end
        }
        return parts == 4 && first == 127;
    }

    /**
     * The Origin a browser sends ({@code scheme://host[:port]}) names the same host and port as the
     * Host header; a port left out is the scheme's default (the Host's: the connection's scheme).
     * {@code Origin: null} (a sandboxed frame, a file, a redirect across sites) is no origin of ours.
     */
    private static boolean sameOrigin(String origin, HostAndPort host, boolean tls) {
        URI uri;
        try {
            uri = new URI(origin.trim());
        } catch (URISyntaxException e) {
            return false;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null || uri.getRawUserInfo() != null
                || !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/") || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            return false;
        }
        int originPort = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        int hostPort = host.port() >= 0 ? host.port() : tls ? 443 : 80;
        return uri.getHost().equalsIgnoreCase(host.host()) && originPort == hostPort;
    }
}
