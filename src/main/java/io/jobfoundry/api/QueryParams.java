package io.jobfoundry.api;

/**
 * Query parameters are taken as text and converted here, so that a bad value is a {@code 400}
 * naming the parameter (JAX-RS would answer a failed conversion of a query parameter with 404).
 */
final class QueryParams {

    private QueryParams() {
    }

    static int integer(String name, String text, int min, int max, int absent) {
        if (text == null) {
            return absent;
        }
        if (!text.matches("-?[0-9]{1,18}")) {
            throw new InvalidInputException(name, text.matches("-?[0-9]+")
                    ? name + " must be within " + min + ".." + max
                    : name + " must be a whole number, not " + Problems.printable(text));
        }
        long value = Long.parseLong(text);
        if (value < min || value > max) {
            throw new InvalidInputException(name, name + " must be within " + min + ".." + max);
        }
        return (int) value;
    }
}
