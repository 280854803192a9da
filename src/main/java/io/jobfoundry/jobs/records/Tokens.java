package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.CallKey;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Random leases and request nonces (128 bits, URL-safe; leases must not be guessable), and the ids
 * of created jobs.
 */
public final class Tokens {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    /**
     * 64 URL-safe characters in ASCII order, so that encoded strings sort as their bytes do. Not
     * {@code -}: an id's first character encodes the top bits of its millisecond, zero for
     * millennia, and an id starting with {@code -} reads as an option on a command line.
     */
    private static final char[] SORTABLE = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
            .toCharArray();

    private Tokens() {
    }

    public static String next() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return ENCODER.encodeToString(bytes);
    }

    /**
     * The nonce of one call, drawn before its transaction so that every attempt carries it: random
     * ({@link #next}, no {@code /} and no {@code :}), or, for a call a client named with a key,
     * {@code key:<key>/<random>}. A record keeps the nonce of the call that created it ({@code
     * origin}, which dependents tell the job's incarnations apart by: the random part keeps it
     * unique when a client's repeat makes the job again after a removal) and of the last add or
     * resubmit that changed it; {@link #sameCall} recognizes a repeat by either.
     */
    public static String nonce(CallKey key) {
        return key == null ? next() : "key:" + key.value() + "/" + next();
    }

    /** {@link #nonce} of item {@code index} of a batch sent under {@code key}. */
    public static String itemNonce(CallKey key, int index) {
        return key == null ? next() : "item:" + index + ":" + key.value() + "/" + next();
    }

    /** Whether {@code nonce} names a call a client named with a key, which the client may repeat. */
    static boolean keyed(String nonce) {
        return nonce.lastIndexOf('/') >= 0;
    }

    /**
     * Whether a record's {@code recorded} nonce is of the same call as {@code nonce}: the same
     * attempt's (the store's own retry), or the same key's with another random part (a client's
     * repeat). A key may hold {@code /}; the random part never does, and is always as long.
     */
    static boolean sameCall(String recorded, String nonce) {
        if (recorded == null) {
            return false;
        }
        int cut = nonce.lastIndexOf('/');
        return recorded.equals(nonce)
                || cut >= 0 && recorded.length() == nonce.length() && recorded.regionMatches(0, nonce, 0, cut + 1);
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
