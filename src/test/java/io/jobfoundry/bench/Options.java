package io.jobfoundry.bench;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command-line options of the bench: positional words, then {@code --name value} pairs. An option
 * a command does not know is an error, so a typo never silently runs the defaults.
 */
public final class Options {

    private final List<String> words;
    private final Map<String, String> values;

    private Options(List<String> words, Map<String, String> values) {
        this.words = words;
        this.values = values;
    }

    /** Parses {@code args}, accepting only the option names in {@code known} (without {@code --}). */
    public static Options parse(String[] args, String... known) {
        Set<String> allowed = Set.of(known);
        List<String> words = new ArrayList<>();
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                words.add(args[i]);
                continue;
            }
            String name = args[i].substring(2);
            if (!allowed.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name + "; known: --" + String.join(", --", known));
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("--" + name + " needs a value");
            }
            values.put(name, args[++i]);
        }
        return new Options(words, values);
    }

    /** The positional word at {@code index}, or {@code otherwise}. */
    public String word(int index, String otherwise) {
        return index < words.size() ? words.get(index) : otherwise;
    }

    public String text(String name, String otherwise) {
        return values.getOrDefault(name, otherwise);
    }

    public int integer(String name, int otherwise) {
        String value = values.get(name);
        return value == null ? otherwise : Integer.parseInt(value.replace("_", "").replace(",", ""));
    }

    public double decimal(String name, double otherwise) {
        String value = values.get(name);
        return value == null ? otherwise : Double.parseDouble(value);
    }

    /** A comma-separated list of whole numbers, {@code 1000,100000}; underscores are allowed ({@code 1_000}). */
    public int[] integers(String name, int... otherwise) {
        String value = values.get(name);
        if (value == null) {
            return otherwise;
        }
        return Arrays.stream(value.split(",")).map(s -> s.trim().replace("_", "")).mapToInt(Integer::parseInt).toArray();
    }

    public URI uri(String name, String otherwise) {
        return URI.create(text(name, otherwise));
    }
}
