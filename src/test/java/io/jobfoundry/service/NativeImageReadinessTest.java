package io.jobfoundry.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.api.JobDto;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.Timer;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.junit.jupiter.api.Test;

/**
 * There is no GraalVM here, so what a native build needs is checked on the JVM instead, from the
 * application's own classes: nothing per-process is frozen into the image by a static
 * initializer, every type Jackson writes is registered for reflection, and sqlite-jdbc still
 * brings its own native-image support (fdb-java's configuration is NativeImageConfigTest's).
 */
class NativeImageReadinessTest {

    private static final String PROPERTIES = "META-INF/native-image/io.jobfoundry/jobfoundry/native-image.properties";
    /** Values that are per process: built at image build time they would be shared by every process. */
    private static final List<Class<?>> PER_PROCESS = List.of(Random.class, Thread.class, ExecutorService.class,
            Timer.class);

    private final ClassLoader loader = getClass().getClassLoader();

    @Test
    void classesWithPerProcessStaticsAreInitializedAtRunTime() throws Exception {
        Set<String> runTime = runTimeInitialized();
        Set<String> needed = new TreeSet<>();
        for (Class<?> type : applicationClasses()) {
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers())
                        && PER_PROCESS.stream().anyMatch(p -> p.isAssignableFrom(field.getType()))) {
                    needed.add(type.getName());
                }
            }
        }
        assertFalse(needed.isEmpty(), "Tokens' SecureRandom at least");
        assertTrue(runTime.containsAll(needed), "--initialize-at-run-time in " + PROPERTIES + " lacks " + needed);
        for (String name : runTime) {
            Class.forName(name, false, loader); // no stale names
        }
    }

    /**
     * Quarkus registers the declared return types of resource methods, not what a {@code Response}
     * or an event stream carries, nor what their members hold: everything reachable from the
     * resource methods' types and their documented response schemas must be registered.
     */
    @Test
    void everyTypeTheApiSerializesIsRegisteredForReflection() throws Exception {
        Deque<Class<?>> pending = new ArrayDeque<>();
        pending.add(JobDto.class); // the data of every "state" event (JobEventStream)
        for (Class<?> resource : applicationClasses()) {
            if (resource.getAnnotation(Path.class) == null) {
                continue;
            }
            for (Method method : resource.getDeclaredMethods()) {
                if (Arrays.stream(method.getAnnotations())
                        .noneMatch(a -> a.annotationType().isAnnotationPresent(HttpMethod.class))) {
                    continue;
                }
                collect(method.getGenericReturnType(), pending);
                for (APIResponse response : method.getAnnotationsByType(APIResponse.class)) {
                    for (Content content : response.content()) {
                        pending.add(content.schema().implementation());
                    }
                }
            }
        }
        Set<Class<?>> serialized = new LinkedHashSet<>();
        while (!pending.isEmpty()) {
            Class<?> type = pending.pop();
            if (!type.getName().startsWith("io.jobfoundry.") || !serialized.add(type)) {
                continue;
            }
            if (type.isRecord()) {
                for (RecordComponent component : type.getRecordComponents()) {
                    collect(component.getGenericType(), pending);
                }
            }
        }
        assertTrue(serialized.size() >= 8, serialized.toString());
        List<String> missing = new ArrayList<>();
        for (Class<?> type : serialized) {
            if (type.getAnnotation(RegisterForReflection.class) == null) {
                missing.add(type.getName());
            }
        }
        assertEquals(List.of(), missing, "serialized by Jackson but not @RegisterForReflection");
    }

    @Test
    void sqliteJdbcBringsItsNativeImageFeatureAndLibraries() throws IOException {
        String properties;
        try (InputStream in = loader.getResourceAsStream("META-INF/native-image/org.xerial/sqlite-jdbc/native-image.properties")) {
            assertNotNull(in, "sqlite-jdbc without native-image support: add its JNI config and library here");
            properties = new String(in.readAllBytes());
        }
        assertTrue(properties.contains("--features=org.sqlite.nativeimage.SqliteJdbcFeature"), properties);
        // The feature adds the library of the build machine's platform as a resource and loads it from there.
        for (String platform : List.of("Linux/x86_64", "Linux/aarch64")) {
            assertNotNull(loader.getResource("org/sqlite/native/" + platform + "/libsqlitejdbc.so"), platform);
        }
    }

    private static void collect(Type type, Deque<Class<?>> into) {
        if (type instanceof Class<?> plain) {
            into.add(plain.isArray() ? plain.getComponentType() : plain);
        } else if (type instanceof ParameterizedType parameterized) {
            collect(parameterized.getRawType(), into);
            for (Type argument : parameterized.getActualTypeArguments()) {
                collect(argument, into);
            }
        }
    }

    private Set<String> runTimeInitialized() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = loader.getResourceAsStream(PROPERTIES)) {
            assertNotNull(in, PROPERTIES);
            properties.load(in);
        }
        Set<String> names = new TreeSet<>();
        Matcher option = Pattern.compile("--initialize-at-run-time=(\\S+)").matcher(properties.getProperty("Args"));
        while (option.find()) {
            names.addAll(Arrays.asList(option.group(1).split(",")));
        }
        return names;
    }

    /** The compiled classes of src/main (not the tests'), loaded without initializing them. */
    private List<Class<?>> applicationClasses() throws Exception {
        java.nio.file.Path root = java.nio.file.Path.of(
                JobDto.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<java.nio.file.Path> files = Files.walk(root)) {
            for (java.nio.file.Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = root.relativize(file).toString();
                name = name.substring(0, name.length() - ".class".length()).replace(java.io.File.separatorChar, '.');
                classes.add(Class.forName(name, false, loader));
            }
        }
        return classes;
    }
}
