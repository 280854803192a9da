package io.jobfoundry.client;

import java.nio.charset.StandardCharsets;

/** Paths of the API, with names percent-encoded as the service expects (everything but RFC 3986's unreserved). */
final class Paths {

    private Paths() {
    }

    static String job(String type, String id) {
        return "/v1/jobs/" + segment(type) + "/" + segment(id);
    }

    static String type(String type) {
        return "/v1/types/" + segment(type);
    }

    static String segment(String name) {
        StringBuilder out = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return out.toString();
    }
}
