package io.jobfoundry.bench.measure;

/** Formats milliseconds with the precision a reader needs: 0.123 ms, 12.3 ms, 1234 ms. */
public final class Millis {

    private Millis() {
    }

    public static String format(double millis) {
        if (Double.isNaN(millis)) {
            return "n/a";
        }
        if (millis < 1) {
            return String.format("%.3f ms", millis);
        }
        return millis < 100 ? String.format("%.1f ms", millis) : String.format("%.0f ms", millis);
    }
}
