package io.jobfoundry.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;

/**
 * Reads a member's value back from a request body as it was sent, for {@link JsonBody}: the tree
 * Jackson builds holds BigDecimals, which lose {@code -0} and respell exponents, and a job's data
 * must go back to its worker exactly as written.
 */
final class JsonSource {

    /**
     * Marks an array index among the members of a path. The members of a path are names this
     * service asks for, none of which starts with a control character.
     */
    private static final String INDEX = "\u0000";
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private JsonSource() {
    }

    /** The path member for element {@code i} of an array. */
    static String index(int i) {
        return INDEX + i;
    }

    /**
     * The value of member {@code name} of the object at {@code path}, copied from the body as sent: compact, with
     * each number's text as written (the tree holds BigDecimals, which lose {@code -0} and respell
     * exponents). The body was parsed once already, so reading it again cannot fail.
     */
    static String asWritten(byte[] source, List<String> path, String name) {
        StringWriter out = new StringWriter();
        try (JsonParser parser = MAPPER.createParser(source); JsonGenerator generator = MAPPER.createGenerator(out)) {
            parser.nextToken();
            for (String member : path) {
                if (member.startsWith(INDEX)) {
                    element(parser, Integer.parseInt(member.substring(INDEX.length())));
                } else {
                    seek(parser, member);
                }
            }
            seek(parser, name);
            int depth = 0;
            do {
                JsonToken token = parser.currentToken();
                if (token.isNumeric()) {
                    generator.writeNumber(parser.getText());
                } else {
                    generator.copyCurrentEvent(parser);
                }
                if (token.isStructStart()) {
                    depth++;
                } else if (token.isStructEnd()) {
                    depth--;
                }
            } while (depth > 0 && parser.nextToken() != null);
        } catch (IOException e) {
            throw new IllegalStateException("a body that parsed once parses again", e);
        }
        return out.toString();
    }

    /** Moves the parser, standing on an array's start, onto the start of its element {@code index}. */
    private static void element(JsonParser parser, int index) throws IOException {
        for (int i = 0; i <= index; i++) {
            parser.nextToken();
            if (i < index) {
                parser.skipChildren();
            }
        }
    }

    /** Moves the parser, standing on an object's start, onto the value of its member {@code name}. */
    private static void seek(JsonParser parser, String name) throws IOException {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            boolean found = name.equals(parser.currentName());
            parser.nextToken();
            if (found) {
                return;
            }
            parser.skipChildren();
        }
        throw new IllegalStateException("member " + name + " is in the tree but not in the body");
    }

}
