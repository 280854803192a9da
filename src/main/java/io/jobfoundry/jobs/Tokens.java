package io.jobfoundry.jobs;

import java.security.SecureRandom;
import java.util.Base64;

/** Random ids, leases and request nonces: 128 bits, URL-safe. Leases must not be guessable. */
final class Tokens {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private Tokens() {
    }

    static String next() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return ENCODER.encodeToString(bytes);
    }
}
