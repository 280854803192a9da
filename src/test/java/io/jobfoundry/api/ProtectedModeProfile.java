package io.jobfoundry.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** No token configured, not open (the default), listening on every interface, as a service would. */
public class ProtectedModeProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.http.host", "0.0.0.0");
    }
}
