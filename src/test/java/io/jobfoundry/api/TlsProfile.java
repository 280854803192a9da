package io.jobfoundry.api;

import io.jobfoundry.auth.KeytoolCertificates;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * TLS with PEM files through Quarkus' TLS registry, as README's "TLS" configures it: a server
 * certificate for localhost, and a client certificate (CN {@value #CLIENT_CN}) trusted and mapped
 * to the token {@code tls-worker}. The certificates are made here, with the JDK's keytool, before
 * Quarkus starts; nothing is checked in.
 */
public class TlsProfile implements QuarkusTestProfile {

    static final String PASSWORD = "test-only";
    static final String CLIENT_CN = "worker-7";
    static final String VIEWER = "tls-viewer-secret-51c0";
    /**
     * Where this JVM's certificates are: a system property, because Quarkus and JUnit load this class
     * in different class loaders (and may ask for the overrides more than once), and all must see the
     * same certificates.
     */
    private static final String DIR_PROPERTY = "tls-test.dir";

    @Override
    public Map<String, String> getConfigOverrides() {
        try {
            if (Files.exists(dir().resolve("client.crt"))) {
                return overrides(); // made already, for this JVM
            }
            keyPair("server", "CN=localhost", "SAN=dns:localhost,ip:127.0.0.1");
            keyPair("client", "CN=" + CLIENT_CN, null);
            // Same CN, not trusted: must not pass for tls-worker.
            keyPair("intruder", "CN=" + CLIENT_CN, null);
            pem("server");
            pem("client");
        } catch (Exception e) {
            throw new IllegalStateException("making the test certificates failed", e);
        }
        return overrides();
    }

    private static Map<String, String> overrides() {
        Map<String, String> config = new HashMap<>();
        config.put("quarkus.tls.key-store.pem.0.cert", dirPath().resolve("server.crt").toString());
        config.put("quarkus.tls.key-store.pem.0.key", dirPath().resolve("server.key").toString());
        config.put("quarkus.tls.trust-store.pem.certs", dirPath().resolve("client.crt").toString());
        config.put("quarkus.http.test-ssl-port", "0");
        config.put("jobfoundry.auth.tokens.\"tls-viewer\".hash", TokensProfile.hash(VIEWER));
        config.put("jobfoundry.auth.tokens.\"tls-viewer\".roles", "viewer");
        config.put("jobfoundry.auth.tokens.\"tls-worker\".hash", TokensProfile.hash(UUID.randomUUID().toString()));
        config.put("jobfoundry.auth.tokens.\"tls-worker\".roles", "worker");
        config.put("jobfoundry.auth.tokens.\"tls-worker\".types", "email*");
        config.put("jobfoundry.auth.tokens.\"tls-worker\".certificate-cn", CLIENT_CN);
        return config;
    }

    static Path dirPath() {
        try {
            return dir();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static synchronized Path dir() throws IOException {
        String dir = System.getProperty(DIR_PROPERTY);
        if (dir != null) {
            return Path.of(dir);
        }
        Path made = Files.createDirectories(Path.of("target", "tls-test", UUID.randomUUID().toString().substring(0, 8)));
        System.setProperty(DIR_PROPERTY, made.toString());
        return made;
    }

    static Path keyStore(String name) {
        return dirPath().resolve(name + ".p12");
    }

    private static void keyPair(String name, String subject, String extension) throws Exception {
        KeytoolCertificates.keyPair(keyStore(name), name, PASSWORD, subject, extension);
    }

    /** The key pair's certificate and PKCS#8 key as PEM files, the form the TLS registry reads. */
    private static void pem(String name) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore(name))) {
            store.load(in, PASSWORD.toCharArray());
        }
        Certificate certificate = store.getCertificate(name);
        PrivateKey key = (PrivateKey) store.getKey(name, PASSWORD.toCharArray());
        Files.writeString(dirPath().resolve(name + ".crt"), pem("CERTIFICATE", certificate.getEncoded()));
        Files.writeString(dirPath().resolve(name + ".key"), pem("PRIVATE KEY", key.getEncoded()));
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + label + "-----\n";
    }
}
