package io.jobfoundry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.CertificateCredential;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client certificate is the token its subject's one CN names; a subject with two CNs, in two
 * RDNs (either order) or in one multi-valued RDN, is ambiguous and is no token. Certificates made
 * here with keytool, as the TLS tests make theirs.
 */
class CertificateAugmentorTest {

    private static final String PASSWORD = "test-only";

    @TempDir
    static Path dir;

    private static CertificateAugmentor augmentor;

    @BeforeAll
    static void configureATokenForTheCnWorker7() {
        String hash = "sha256:" + HexFormat.of().formatHex(ConfiguredTokens.sha256("unused"));
        AuthConfig config = new SmallRyeConfigBuilder().withMapping(AuthConfig.class)
                .withSources(new PropertiesConfigSource(Map.of(
                        "jobfoundry.auth.tokens.\"billing-worker\".hash", hash,
                        "jobfoundry.auth.tokens.\"billing-worker\".roles", "worker",
                        "jobfoundry.auth.tokens.\"billing-worker\".certificate-cn", "worker-7",
                        "jobfoundry.auth.tokens.\"other-worker\".hash", "sha256:" + "0".repeat(64),
                        "jobfoundry.auth.tokens.\"other-worker\".roles", "worker",
                        "jobfoundry.auth.tokens.\"other-worker\".certificate-cn", "other"), "test", 300))
                .build().getConfigMapping(AuthConfig.class);
        augmentor = new CertificateAugmentor(new ConfiguredTokens(config));
    }

    @Test
    void theOneCnOfTheSubjectNamesTheToken() throws Exception {
        assertEquals("billing-worker", augmented("CN=worker-7"));
        assertEquals("billing-worker", augmented("CN=worker-7, OU=billing, O=Example"));
        assertEquals("billing-worker", augmented("OU=billing, CN=worker-7"));
        // One CN in a multi-valued RDN (C sorts before CN): still the subject's one CN.
        assertEquals("billing-worker", augmented("C=US+CN=worker-7, O=Example"));
        assertEquals("other-worker", augmented("CN=other"));
    }

    @Test
    void aSubjectWithMoreThanOneCnIsNoToken() throws Exception {
        for (String subject : List.of("CN=worker-7, CN=other", "CN=other, CN=worker-7", "CN=worker-7, CN=worker-7",
                "CN=worker-7+CN=other, O=Example", "CN=other+CN=worker-7", "O=Example+CN=worker-7, CN=other")) {
            assertThrows(AuthenticationFailedException.class, () -> augmented(subject), subject);
        }
    }

    @Test
    void aSubjectWithoutCnIsNoToken() throws Exception {
        assertThrows(AuthenticationFailedException.class, () -> augmented("OU=worker-7, O=Example"));
    }

    /** The name of the token the certificate with {@code subject} stands for, as Quarkus' mTLS mechanism hands it over. */
    private static String augmented(String subject) throws Exception {
        Path store = Files.createTempFile(dir, "client", ".p12");
        Files.delete(store); // keytool makes the store; an empty file is not one
        KeytoolCertificates.keyPair(store, "client", PASSWORD, subject, null);
        X509Certificate certificate = KeytoolCertificates.certificate(store, "client", PASSWORD);
        SecurityIdentity mtls = QuarkusSecurityIdentity.builder()
                .setPrincipal(certificate.getSubjectX500Principal())
                .addCredential(new CertificateCredential(certificate))
                .build();
        return augmentor.augment(mtls, null).await().indefinitely().getPrincipal().getName();
    }
}
