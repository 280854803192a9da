package io.jobfoundry.api;

import java.net.URI;
import java.nio.charset.StandardCharsets;

/** The URI of a job, for {@code Location}: ids may hold any character but '/' and controls. */
final class Locations {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private Locations() {
    }

    static URI job(URI base, String type, String id) {
        return URI.create(base.toString() + (base.toString().endsWith("/") ? "" : "/") + "v1/jobs/"
                + segment(type) + "/" + segment(id));
    }

    /** Percent-encodes everything but RFC 3986's unreserved characters. */
    static String segment(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                out.append(c);
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return out.toString();
    }
}
