package io.jobfoundry.kv.fdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * No GraalVM here, so the native-image configuration is checked against the fdb-java jar on the
 * class path instead: every class, constructor and method it names must exist with that exact
 * signature (a typo would only show as a crash inside native code), and every resource it includes
 * must be in the jar. Classes are looked up without initializing them, so libfdb_c is not needed.
 */
class NativeImageConfigTest {

    private static final String DIR = "META-INF/native-image/io.jobfoundry/fdb/";
    private static final Map<String, Class<?>> PRIMITIVES = Map.of(
            "boolean", boolean.class, "byte", byte.class, "char", char.class, "short", short.class,
            "int", int.class, "long", long.class, "float", float.class, "double", double.class);

    private final ClassLoader loader = getClass().getClassLoader();

    @Test
    void everyJniCallbackTargetExists() throws Exception {
        assertMembersExist(json("jni-config.json"));
    }

    @Test
    void everyReflectionTargetExists() throws Exception {
        assertMembersExist(json("reflect-config.json"));
    }

    @Test
    void theNativeFdbJavaLibrariesAreIncludedAsResources() throws Exception {
        List<String> included = new ArrayList<>();
        for (JsonNode include : json("resource-config.json").path("resources").path("includes")) {
            Matcher literal = Pattern.compile("\\\\Q(.*)\\\\E").matcher(include.path("pattern").asText());
            assertTrue(literal.matches(), "a literal pattern: " + include);
            assertNotNull(loader.getResource(literal.group(1)), literal.group(1));
            included.add(literal.group(1));
        }
        assertEquals(List.of("lib/linux/amd64/libfdb_java.so", "lib/linux/aarch64/libfdb_java.so"), included);
    }

    @Test
    void everyClassInitializedAtRunTimeExists() throws Exception {
        Properties properties = new Properties();
        try (InputStream in = resource("native-image.properties")) {
            properties.load(in);
        }
        String args = properties.getProperty("Args");
        Matcher option = Pattern.compile("--initialize-at-run-time=(\\S+)").matcher(args);
        assertTrue(option.find(), args);
        for (String name : option.group(1).split(",")) {
            load(name);
        }
    }

    private void assertMembersExist(JsonNode entries) throws Exception {
        assertTrue(entries.size() > 0);
        for (JsonNode entry : entries) {
            Class<?> type = load(entry.path("name").asText());
            for (JsonNode method : entry.path("methods")) {
                List<Class<?>> parameters = new ArrayList<>();
                for (JsonNode parameter : method.path("parameterTypes")) {
                    parameters.add(load(parameter.asText()));
                }
                Class<?>[] signature = parameters.toArray(Class<?>[]::new);
                String name = method.path("name").asText();
                if (name.equals("<init>")) {
                    type.getDeclaredConstructor(signature);
                } else {
                    type.getDeclaredMethod(name, signature);
                }
            }
        }
    }

    private Class<?> load(String name) throws ClassNotFoundException {
        if (name.endsWith("[]")) {
            return load(name.substring(0, name.length() - 2)).arrayType();
        }
        Class<?> primitive = PRIMITIVES.get(name);
        return primitive != null ? primitive : Class.forName(name, false, loader);
    }

    private JsonNode json(String file) throws IOException {
        try (InputStream in = resource(file)) {
            return new ObjectMapper().readTree(in);
        }
    }

    private InputStream resource(String file) {
        InputStream in = loader.getResourceAsStream(DIR + file);
        assertNotNull(in, DIR + file);
        return in;
    }
}
