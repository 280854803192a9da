package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.InvalidJobRequestException;
import java.util.Base64;
import java.util.function.Function;

/**
 * The listings' cursors: a position packed into bytes, as unpadded base64url. A cursor is taken back
 * only in the exact form this service writes: decoded, read, and written again, it must come out
 * the same (no padding, no stray low bits, nothing that merely happens to unpack), so that each
 * listing refuses another's cursors and any made up.
 */
final class Cursors {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private Cursors() {
    }

    static String encode(byte[] position) {
        return ENCODER.encodeToString(position);
    }

    /**
     * The position {@code cursor} stands for. {@code read} makes it of the cursor's bytes, failing
     * (with any runtime exception) on bytes that are not one; {@code pack} gives the bytes back.
     * Anything else than a cursor {@code encode(pack(position))} wrote is {@code 400}, naming
     * {@code cursor}; {@code which} ends its detail (" for order=recent": whose cursors it takes).
     */
    static <T> T decode(String cursor, Function<byte[], T> read, Function<T, byte[]> pack, String which) {
        try {
            T position = read.apply(Base64.getUrlDecoder().decode(cursor));
            if (position == null || !encode(pack.apply(position)).equals(cursor)) {
                throw new IllegalArgumentException("not canonical");
            }
            return position;
        } catch (RuntimeException e) {
            // Base64, unpacking and the checks each fail their own way on foreign input; any of
            // them means the same to the client.
            throw new InvalidJobRequestException("cursor", "cursor is not one this service handed out" + which);
        }
    }
}
