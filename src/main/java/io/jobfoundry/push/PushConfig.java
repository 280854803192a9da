package io.jobfoundry.push;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/**
 * Push delivery's configuration. {@code allowed-targets} and {@code signing-secret} are fixed
 * names (operators' manifests rely on them); each also works as an environment variable
 * ({@code JOBFOUNDRY_PUSH_ALLOWED_TARGETS}, {@code JOBFOUNDRY_PUSH_SIGNING_SECRET}).
 */
@ConfigMapping(prefix = "jobfoundry.push")
public interface PushConfig {

    /**
     * URL prefixes a push target must start with (comma-separated). None: no type may push, since
     * a target is a request the service makes on a client's behalf, into whatever network it sits in.
     */
    Optional<List<String>> allowedTargets();

    /**
     * The HMAC-SHA256 key of the {@code Jobfoundry-Signature} header; unset, pushes are not signed.
     * Never logged nor shown in any answer.
     */
    Optional<String> signingSecret();

    /** The largest answer read from a target; a longer one is a failed attempt (its data could not be kept anyway). */
    @WithDefault("65536")
    int maxAnswerBytes();
}
