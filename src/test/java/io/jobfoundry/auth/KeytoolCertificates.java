package io.jobfoundry.auth;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed test certificates made with the JDK's keytool (EC P-256, valid two days), in a
 * PKCS#12 store: nothing is checked in, and the subject is any DN keytool takes, repeated and
 * multi-valued RDNs included.
 */
public final class KeytoolCertificates {

    private KeytoolCertificates() {
    }

    /** Makes a key pair with {@code subject} under {@code alias} in a new PKCS#12 {@code store}. */
    public static void keyPair(Path store, String alias, String password, String subject, String extension)
            throws IOException, InterruptedException {
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        List<String> command = new ArrayList<>(List.of(keytool, "-genkeypair", "-alias", alias,
                "-keyalg", "EC", "-groupname", "secp256r1", "-dname", subject, "-validity", "2",
                "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", password, "-keypass", password));
        if (extension != null) {
            command.addAll(List.of("-ext", extension));
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try (InputStream out = process.getInputStream()) {
            output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
    }

    /** The certificate of {@code alias} in the PKCS#12 {@code store}. */
    public static X509Certificate certificate(Path store, String alias, String password) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, password.toCharArray());
        }
        return (X509Certificate) keys.getCertificate(alias);
    }
}
