package io.jobfoundry.service;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.jobfoundry.api.ApiConfig;
import io.jobfoundry.auth.AuthConfig;
import io.jobfoundry.push.PushConfig;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.config.ConfigMappings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes manifests in {@code k8s/} against the application they deploy: every variant
 * (a kustomization no other one includes) is assembled from its resources as kustomize would, and
 * its workload is checked against the configuration and the health endpoints this application
 * actually has — probe paths answer here, ports are the configured port, environment variables
 * name real configuration properties, the store path lies on the mounted volume, the cluster file
 * comes from the ConfigMap the FoundationDB operator (or the external overlay) provides.
 */
@QuarkusTest
class KubernetesManifestsTest {

    private static final Path K8S = Path.of("k8s");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Map<String, String> PROBES = Map.of(
            "startupProbe", "/q/health/started",
            "readinessProbe", "/q/health/ready",
            "livenessProbe", "/q/health/live");
    /** Variables the container needs that are not application configuration, and why. */
    private static final Set<String> NOT_CONFIGURATION = Set.of(
            "LD_LIBRARY_PATH", // where the dynamic linker finds libfdb_c for fdb-java's libfdb_java
            "JAVA_MAX_MEM_RATIO"); // the heap's share of the memory limit, read by the image's run-java.sh

    private final Config config = ConfigProvider.getConfig();

    @Test
    void theVariantsAreTheOnesTheReadmeDescribes() throws IOException {
        assertEquals(Set.of("embedded", "fdb/external", "fdb/operator"), variants().keySet());
    }

    @Test
    void everyManifestBelongsToAKustomizationAndEveryResourceExists() throws IOException {
        Set<Path> listed = new HashSet<>();
        for (Path kustomization : kustomizations()) {
            for (JsonNode resource : read(kustomization).get(0).path("resources")) {
                Path target = kustomization.getParent().resolve(resource.asText()).normalize();
                assertTrue(Files.isRegularFile(target) || Files.isRegularFile(target.resolve("kustomization.yaml")),
                        kustomization + " lists " + resource.asText() + ", which does not exist");
                listed.add(target);
            }
        }
        try (Stream<Path> files = Files.walk(K8S)) {
            files.filter(KubernetesManifestsTest::isYaml).filter(f -> !isKustomization(f)).map(Path::normalize)
                    .forEach(f -> assertTrue(listed.contains(f), f + " is in no kustomization: it would never be applied"));
        }
    }

    /**
     * The pods serve HTTPS only, on quarkus.http.ssl-port, with no plain-text port that would take
     * the API and its tokens in the clear; the probes ask over HTTPS too.
     */
    @Test
    void probesUseTheHealthEndpointsTheApplicationServesOnItsHttpsPort() throws IOException {
        Set<Integer> sslPorts = new HashSet<>();
        try (Stream<Path> files = Files.walk(K8S)) {
            for (Path file : files.filter(f -> f.getFileName().toString().equals("jobfoundry.properties")).toList()) {
                java.util.Properties properties = new java.util.Properties();
                try (InputStream in = Files.newInputStream(file)) {
                    properties.load(in);
                }
                assertEquals("disabled", properties.getProperty("quarkus.http.insecure-requests"), file + ": HTTPS only");
                sslPorts.add(Integer.parseInt(properties.getProperty("quarkus.http.ssl-port")));
            }
        }
        assertEquals(1, sslPorts.size(), "every variant's HTTPS port: " + sslPorts);
        int port = sslPorts.iterator().next();
        long storeTimeout = config.getValue("jobfoundry.health.store-timeout", Duration.class).toSeconds();
        for (Map.Entry<String, List<JsonNode>> variant : variants().entrySet()) {
            JsonNode container = container(workload(variant.getValue()));
            String where = variant.getKey() + ": ";
            assertEquals(port, portNamed(container, "https"), where + "the container port is quarkus.http.ssl-port");
            assertEquals(1, container.path("ports").size(), where + "no port but HTTPS");
            PROBES.forEach((probe, path) -> {
                JsonNode get = container.path(probe).path("httpGet");
                assertEquals(path, get.path("path").asText(), where + probe);
                assertEquals("https", get.path("port").asText(), where + probe + " port");
                assertEquals("HTTPS", get.path("scheme").asText(), where + probe + " scheme");
                // The path is served, and healthy here: a typo or a moved root path fails now, not in the cluster.
                given().get(path).then().statusCode(200).body("status", equalTo("UP"));
            });
            assertTrue(container.path("readinessProbe").path("timeoutSeconds").asLong() > storeTimeout,
                    where + "readiness outlasts jobfoundry.health.store-timeout, so a slow store is 'not ready'");
        }
    }

    @Test
    void everyEnvironmentVariableIsConfigurationTheApplicationReads() throws IOException {
        Set<String> mapped = new TreeSet<>();
        for (Class<?> mapping : List.of(JobfoundryConfig.class, ApiConfig.class, AuthConfig.class, PushConfig.class)) {
            ConfigMappings.getProperties(ConfigMappings.ConfigClass.configClass(mapping)).keySet()
                    .forEach(property -> mapped.add(environmentName(property)));
        }
        Set<String> quarkus = quarkusRuntimeProperties();
        for (Map.Entry<String, List<JsonNode>> variant : variants().entrySet()) {
            for (JsonNode env : container(workload(variant.getValue())).path("env")) {
                String name = env.path("name").asText();
                boolean ok = name.startsWith("JOBFOUNDRY_") ? mapped.contains(name)
                        : name.startsWith("QUARKUS_") ? quarkus.contains(name)
                        : NOT_CONFIGURATION.contains(name);
                assertTrue(ok, variant.getKey() + ": " + name + " is no configuration property the application has");
            }
            String store = env(variant.getValue(), "JOBFOUNDRY_STORE");
            assertNotNull(store, variant.getKey() + " names its store");
            // The heap at most half the memory limit: the JVM's and the store's native memory live outside it.
            String heapRatio = env(variant.getValue(), "JAVA_MAX_MEM_RATIO");
            assertTrue(heapRatio != null && Integer.parseInt(heapRatio) <= 50,
                    variant.getKey() + ": JAVA_MAX_MEM_RATIO " + heapRatio);
            JobfoundryConfig.StoreKind.valueOf(store.toUpperCase(Locale.ROOT));
        }
    }

    @Test
    void podsGetTheTimeToDrainOnShutdown() throws IOException {
        Duration timeout = config.getValue("quarkus.shutdown.timeout", Duration.class);
        for (Map.Entry<String, List<JsonNode>> variant : variants().entrySet()) {
            String delay = env(variant.getValue(), "QUARKUS_SHUTDOWN_DELAY");
            assertNotNull(delay, variant.getKey() + ": a shutdown delay while the endpoints are withdrawn");
            Duration drain = Duration.parse("PT" + delay.toUpperCase(Locale.ROOT)).plus(timeout);
            JsonNode pod = workload(variant.getValue()).path("spec").path("template").path("spec");
            long grace = pod.path("terminationGracePeriodSeconds").asLong(30); // Kubernetes' default
            assertTrue(grace > drain.toSeconds(), variant.getKey() + ": " + grace + " s to drain " + drain);
        }
    }

    @Test
    void podsRunAsNonRootOnAReadOnlyRootFilesystemWithLimits() throws IOException {
        for (Map.Entry<String, List<JsonNode>> variant : variants().entrySet()) {
            JsonNode workload = workload(variant.getValue());
            JsonNode pod = workload.path("spec").path("template").path("spec");
            String where = variant.getKey() + ": ";
            assertTrue(pod.path("securityContext").path("runAsNonRoot").asBoolean(), where + "runAsNonRoot");
            assertTrue(pod.path("securityContext").path("runAsUser").asInt() > 0, where + "a non-root uid");
            List<JsonNode> containers = new ArrayList<>();
            pod.path("initContainers").forEach(containers::add);
            pod.path("containers").forEach(containers::add);
            for (JsonNode container : containers) {
                String name = where + container.path("name").asText() + ": ";
                JsonNode security = container.path("securityContext");
                assertTrue(security.path("readOnlyRootFilesystem").asBoolean(), name + "readOnlyRootFilesystem");
                assertFalse(security.path("allowPrivilegeEscalation").asBoolean(true), name + "no privilege escalation");
                assertTrue(security.path("capabilities").path("drop").toString().contains("\"ALL\""), name + "drops ALL");
                for (String kind : List.of("requests", "limits")) {
                    for (String resource : List.of("cpu", "memory")) {
                        assertFalse(container.path("resources").path(kind).path(resource).isMissingNode(),
                                name + kind + "." + resource);
                    }
                }
            }
            // java.io.tmpdir: native libraries (sqlite-jdbc, fdb-java) and Vert.x' cache are unpacked there.
            assertEquals("emptyDir", volumeKind(pod, mountNamed(container(workload), "/tmp")), where + "/tmp");
        }
    }

    @Test
    void theEmbeddedStoreLivesOnItsPersistentVolume() throws IOException {
        List<JsonNode> docs = variants().get("embedded");
        JsonNode workload = workload(docs);
        assertEquals("StatefulSet", workload.path("kind").asText(), "one pod per volume, never two at once");
        assertEquals(1, workload.path("spec").path("replicas").asInt(), "the embedded store is one process");
        assertEquals("embedded", env(docs, "JOBFOUNDRY_STORE"));
        String path = env(docs, "JOBFOUNDRY_EMBEDDED_PATH");
        assertNotNull(path, "the default path (data/jobfoundry.db) is relative to a read-only working directory");
        Path store = Path.of(path);
        assertTrue(store.isAbsolute(), path);
        String volume = mountNamed(container(workload), store.getParent().toString());
        assertNotNull(volume, "a volume is mounted at " + store.getParent());
        Set<String> claims = new HashSet<>();
        workload.path("spec").path("volumeClaimTemplates").forEach(c -> claims.add(c.path("metadata").path("name").asText()));
        assertTrue(claims.contains(volume), volume + " is a persistent volume claim, not " + claims);
        assertTrue(workload.path("spec").path("template").path("spec").path("securityContext").path("fsGroup").asInt() > 0,
                "fsGroup makes the volume writable for the non-root user");
    }

    @Test
    void fdbReplicasShareTheClusterFileOfTheirConfigMap() throws IOException {
        for (String name : List.of("fdb/operator", "fdb/external")) {
            List<JsonNode> docs = variants().get(name);
            JsonNode workload = workload(docs);
            JsonNode pod = workload.path("spec").path("template").path("spec");
            assertEquals("Deployment", workload.path("kind").asText());
            int replicas = workload.path("spec").path("replicas").asInt();
            assertTrue(replicas >= 2, name + ": several stateless replicas");
            assertEquals("fdb", env(docs, "JOBFOUNDRY_STORE"));

            String clusterFilePath = env(docs, "JOBFOUNDRY_FDB_CLUSTER_FILE");
            assertNotNull(clusterFilePath, name + ": jobfoundry.fdb.cluster-file is set");
            Path clusterFile = Path.of(clusterFilePath);
            // The init container copies it from the ConfigMap into a volume the service may write.
            JsonNode init = pod.path("initContainers").get(0);
            List<String> args = new ArrayList<>();
            init.path("args").forEach(a -> args.add(a.asText()));
            String output = args.get(args.indexOf("--output-dir") + 1);
            String input = args.get(args.indexOf("--input-dir") + 1);
            assertEquals(output, clusterFile.getParent().toString(), name + ": the file is the copy");
            assertEquals(clusterFile.getFileName().toString(), args.get(args.indexOf("--copy-file") + 1), name);
            String shared = mountNamed(container(workload), output);
            assertNotNull(shared, name + ": the service mounts " + output);
            assertEquals(shared, mountNamed(init, output), name + ": one volume for both");
            assertEquals("emptyDir", volumeKind(pod, shared), name + ": writable, per pod");
            JsonNode configMap = volumeNamed(pod, mountNamed(init, input)).path("configMap");
            String configMapName = configMap.path("name").asText();
            String key = null;
            for (JsonNode item : configMap.path("items")) {
                if (item.path("path").asText().equals(clusterFile.getFileName().toString())) {
                    key = item.path("key").asText();
                }
            }
            assertEquals("cluster-file", key, name + ": the file comes from the ConfigMap's cluster-file key");

            JsonNode cluster = ofKind(docs, "FoundationDBCluster");
            JsonNode ownConfigMap = ofKind(docs, "ConfigMap");
            if (cluster != null) {
                assertEquals("apps.foundationdb.org/v1beta2", cluster.path("apiVersion").asText());
                // The operator publishes the cluster file as ConfigMap "<cluster>-config", key "cluster-file".
                assertEquals(configMapName, cluster.path("metadata").path("name").asText() + "-config", name);
                String version = cluster.path("spec").path("version").asText();
                assertTrue(version.matches("7\\.3\\.\\d+"), name + ": a 7.3 cluster for libfdb_c 7.3 (API 730): " + version);
            } else {
                assertNotNull(ownConfigMap, name + ": a FoundationDBCluster or a ConfigMap provides the cluster file");
                assertEquals(configMapName, ownConfigMap.path("metadata").path("name").asText());
                String line = ownConfigMap.path("data").path("cluster-file").asText().trim();
                assertTrue(line.matches("[A-Za-z0-9_]+:[A-Za-z0-9]+@[^,\\s]+:\\d+(,[^,\\s]+:\\d+)*"),
                        name + ": a cluster file line (description:ID@host:port,...): " + line);
            }

            // libfdb_c: copied by the same init container into the directory LD_LIBRARY_PATH names
            // (--copy-primary-library writes libfdb_c.so into --output-dir itself, not into lib/).
            assertEquals(output, env(docs, "LD_LIBRARY_PATH"), name);
            assertEquals("7.3", args.get(args.indexOf("--copy-primary-library") + 1), name + ": libfdb_c 7.3");

            JsonNode budget = ofKind(docs, "PodDisruptionBudget");
            assertNotNull(budget, name + ": a PodDisruptionBudget");
            assertEquals(podLabels(workload), budget.path("spec").path("selector").path("matchLabels"), name);
            assertTrue(budget.path("spec").path("minAvailable").asInt() < replicas, name + ": drains can proceed");
        }
    }

    /**
     * One Service for clients per variant, and a StatefulSet's governing Service headless (its pods'
     * DNS names; a ClusterIP Service there gives them none); each reaches the pods' HTTPS port.
     */
    @Test
    void theServicesReachTheWorkloadsHttpPortAndAStatefulSetsOwnIsHeadless() throws IOException {
        for (Map.Entry<String, List<JsonNode>> variant : variants().entrySet()) {
            List<JsonNode> services = variant.getValue().stream().filter(d -> d.path("kind").asText().equals("Service"))
                    .toList();
            JsonNode workload = workload(variant.getValue());
            assertEquals(1, services.stream().filter(s -> !headless(s)).count(), variant.getKey() + ": one for clients");
            for (JsonNode service : services) {
                assertEquals(podLabels(workload), service.path("spec").path("selector"), variant.getKey());
                for (JsonNode port : service.path("spec").path("ports")) {
                    assertTrue(portNamed(container(workload), port.path("targetPort").asText()) > 0, variant.getKey());
                }
            }
            if (workload.path("kind").asText().equals("StatefulSet")) {
                String governing = workload.path("spec").path("serviceName").asText();
                assertTrue(services.stream().anyMatch(s -> headless(s)
                        && s.path("metadata").path("name").asText().equals(governing)), variant.getKey() + ": " + governing);
            }
        }
    }

    private static boolean headless(JsonNode service) {
        return service.path("spec").path("clusterIP").asText().equals("None");
    }

    // ---- reading the manifests ------------------------------------------------------------------

    /** Each kustomization no other kustomization includes, by its folder under k8s/, with its documents. */
    private static Map<String, List<JsonNode>> variants() throws IOException {
        Set<Path> included = new HashSet<>();
        for (Path kustomization : kustomizations()) {
            for (JsonNode resource : read(kustomization).get(0).path("resources")) {
                Path target = kustomization.getParent().resolve(resource.asText()).normalize();
                if (Files.isDirectory(target)) {
                    included.add(target);
                }
            }
        }
        Map<String, List<JsonNode>> variants = new LinkedHashMap<>();
        for (Path kustomization : kustomizations()) {
            Path folder = kustomization.getParent().normalize();
            if (!included.contains(folder)) {
                variants.put(K8S.relativize(folder).toString().replace('\\', '/'), assemble(folder));
            }
        }
        return variants;
    }

    private static List<JsonNode> assemble(Path folder) throws IOException {
        JsonNode kustomization = read(folder.resolve("kustomization.yaml")).get(0);
        for (String unsupported : List.of("patches", "patchesStrategicMerge", "patchesJson6902", "replacements",
                "components", "namePrefix", "nameSuffix")) {
            assertTrue(kustomization.path(unsupported).isMissingNode(),
                    folder + " uses " + unsupported + ", which this test does not apply: extend it first");
        }
        List<JsonNode> docs = new ArrayList<>();
        for (JsonNode resource : kustomization.path("resources")) {
            Path target = folder.resolve(resource.asText()).normalize();
            docs.addAll(Files.isDirectory(target) ? assemble(target) : read(target));
        }
        return docs;
    }

    private static List<Path> kustomizations() throws IOException {
        try (Stream<Path> files = Files.walk(K8S)) {
            return files.filter(KubernetesManifestsTest::isKustomization).sorted().toList();
        }
    }

    private static boolean isYaml(Path file) {
        return file.toString().endsWith(".yaml") || file.toString().endsWith(".yml");
    }

    private static boolean isKustomization(Path file) {
        return file.getFileName().toString().equals("kustomization.yaml");
    }

    private static List<JsonNode> read(Path file) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (var parser = YAML.getFactory().createParser(file.toFile())) {
            YAML.readValues(parser, JsonNode.class).forEachRemaining(doc -> {
                if (doc != null && !doc.isNull()) {
                    docs.add(doc);
                }
            });
        }
        assertFalse(docs.isEmpty(), file + " is empty");
        for (JsonNode doc : docs) {
            assertTrue(doc.hasNonNull("apiVersion") && doc.hasNonNull("kind"), file + ": apiVersion and kind");
        }
        return docs;
    }

    private static JsonNode ofKind(List<JsonNode> docs, String kind) {
        JsonNode found = null;
        for (JsonNode doc : docs) {
            if (doc.path("kind").asText().equals(kind)) {
                assertTrue(found == null, "one " + kind + " per variant");
                found = doc;
            }
        }
        return found;
    }

    private static JsonNode workload(List<JsonNode> docs) {
        JsonNode deployment = ofKind(docs, "Deployment");
        JsonNode statefulSet = ofKind(docs, "StatefulSet");
        assertTrue(deployment == null ^ statefulSet == null, "one workload per variant");
        return deployment != null ? deployment : statefulSet;
    }

    private static JsonNode container(JsonNode workload) {
        for (JsonNode container : workload.path("spec").path("template").path("spec").path("containers")) {
            if (container.path("name").asText().equals("jobfoundry")) {
                return container;
            }
        }
        return fail("no container named jobfoundry in " + workload.path("metadata").path("name"));
    }

    private static JsonNode podLabels(JsonNode workload) {
        JsonNode labels = workload.path("spec").path("template").path("metadata").path("labels");
        assertEquals(workload.path("spec").path("selector").path("matchLabels"), labels, "selector = pod labels");
        return labels;
    }

    private static String env(List<JsonNode> docs, String name) {
        for (JsonNode env : container(workload(docs)).path("env")) {
            if (env.path("name").asText().equals(name)) {
                return env.path("value").asText();
            }
        }
        return null;
    }

    private static int portNamed(JsonNode container, String name) {
        for (JsonNode port : container.path("ports")) {
            if (port.path("name").asText().equals(name)) {
                return port.path("containerPort").asInt();
            }
        }
        return -1;
    }

    /** The name of the volume mounted at exactly {@code path}, or null. */
    private static String mountNamed(JsonNode container, String path) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.path("mountPath").asText().equals(path)) {
                return mount.path("name").asText();
            }
        }
        return null;
    }

    private static JsonNode volumeNamed(JsonNode pod, String name) {
        for (JsonNode volume : pod.path("volumes")) {
            if (volume.path("name").asText().equals(name)) {
                return volume;
            }
        }
        return fail("no volume " + name);
    }

    private static String volumeKind(JsonNode pod, String name) {
        JsonNode volume = volumeNamed(pod, name);
        for (String kind : List.of("emptyDir", "configMap", "persistentVolumeClaim", "secret")) {
            if (volume.has(kind)) {
                return kind;
            }
        }
        return "other";
    }

    /**
     * The environment names of every Quarkus property that can be set when the application runs,
     * from the configuration model each extension ships ({@code META-INF/quarkus-config-doc}):
     * build-time properties set on a pod would be ignored.
     */
    private static Set<String> quarkusRuntimeProperties() throws IOException {
        Set<String> names = new TreeSet<>();
        ObjectMapper json = new ObjectMapper();
        var models = Thread.currentThread().getContextClassLoader()
                .getResources("META-INF/quarkus-config-doc/quarkus-config-model.json");
        while (models.hasMoreElements()) {
            try (InputStream in = models.nextElement().openStream()) {
                // A property is {"path": {"property", "environmentVariable"}, "phase", ...}.
                for (JsonNode property : json.readTree(in).findParents("path")) {
                    if ("RUN_TIME".equals(property.path("phase").asText())) {
                        names.add(property.path("path").path("environmentVariable").asText());
                    }
                }
            }
        }
        assertTrue(names.contains("QUARKUS_HTTP_PORT"), "the configuration models were found: " + names.size());
        return names;
    }

    /** MicroProfile Config's environment name of a property: non-alphanumerics to _, upper case. */
    private static String environmentName(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }
}
