package io.jobfoundry.jobs.records;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Random leases and request nonces (128 bits, URL-safe; leases must not be guessable), and the ids
 * of created jobs.
 */
public final class Tokens {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    /** The 64 URL-safe characters in ASCII order, so that encoded strings sort as their bytes do. */
    private static final char[] SORTABLE = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
            .toCharArray();

    private Tokens() {
    }

    public static String next() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return ENCODER.encodeToString(bytes);
    }

    /**
     * A job id: the creation time in milliseconds (48 bits) followed by 80 random bits, as UUIDv7
     * and ULID lay them out, in 22 URL-safe characters that sort in creation order. Jobs created
     * together are then neighbours in the store's key order, so a batch of creates, accepts and
     * finishes rewrites a few pages instead of one random page per job; and a listing of a type
     * (ordered by id) reads oldest first. Ids of the same millisecond are in random order.
     */
    public static String jobId(long epochMillis) {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        for (int i = 0; i < 6; i++) {
            bytes[i] = (byte) (epochMillis >>> (40 - 8 * i));
        }
        return sortable(bytes);
    }

    /** Big-endian, 6 bits a character, the last character padded with zero bits: order-preserving. */
    static String sortable(byte[] bytes) {
        char[] out = new char[(bytes.length * 8 + 5) / 6];
        int bits = 0;
        int buffer = 0;
        int n = 0;
        for (byte b : bytes) {
            buffer = (buffer << 8) | (b & 0xFF);
            bits += 8;
            while (bits >= 6) {
                bits -= 6;
                out[n++] = SORTABLE[(buffer >>> bits) & 0x3F];
            }
        }
        if (bits > 0) {
            out[n++] = SORTABLE[(buffer << (6 - bits)) & 0x3F];
        }
        return new String(out);
    }
}
