package io.jobfoundry.bench.http;

import java.nio.charset.StandardCharsets;

/** A response as the bench needs it: the status and the whole body. */
public record HttpAnswer(int status, byte[] body) {

    public String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** Throws unless the status is one of {@code expected}: a failed call must stop a measurement, not skew it. */
    public HttpAnswer expect(String call, int... expected) {
        for (int status : expected) {
            if (this.status == status) {
                return this;
            }
        }
        throw new IllegalStateException(call + " answered " + status + ": " + text());
    }
}
