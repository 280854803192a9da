package io.jobfoundry.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Protected mode (no token) behind Quarkus' proxy settings, as a service behind an ingress is
 * configured: X-Forwarded-For and -Proto, the standard Forwarded header, and a forwarded host under
 * a header name of the proxy's own (X-Original-Host), change the request's remote address and host.
 */
public class ForwardedHeadersProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.http.host", "0.0.0.0",
                "quarkus.http.proxy.proxy-address-forwarding", "true",
                "quarkus.http.proxy.allow-x-forwarded", "true",
                "quarkus.http.proxy.allow-forwarded", "true",
                "quarkus.http.proxy.enable-forwarded-host", "true",
                "quarkus.http.proxy.forwarded-host-header", "X-Original-Host");
    }
}
