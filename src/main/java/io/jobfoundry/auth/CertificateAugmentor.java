package io.jobfoundry.auth;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.CertificateCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.cert.X509Certificate;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * A client certificate (mutual TLS, {@code quarkus.http.ssl.client-auth}) is the token whose
 * {@code certificate-cn} is its subject's CN, with that token's roles and types. Quarkus' own mTLS
 * mechanism has verified the certificate against the TLS trust store and made an identity named
 * after the whole subject, without roles; this replaces it with the token's. A trusted
 * certificate whose CN no token names is refused ({@code 401}) rather than let in with no roles
 * and no types, which every check would have to remember to refuse.
 */
@ApplicationScoped
class CertificateAugmentor implements SecurityIdentityAugmentor {

    private final ConfiguredTokens tokens;

    CertificateAugmentor(ConfiguredTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        CertificateCredential certificate = identity.getCredential(CertificateCredential.class);
        if (certificate == null || identity.getAttribute(Caller.SCOPE) != null) {
            return Uni.createFrom().item(identity); // a token's identity, or anonymous: ours already
        }
        SecurityIdentity token = tokens.byCertificateCn(cn(certificate.getCertificate()));
        return token == null
                ? Uni.createFrom().failure(new AuthenticationFailedException("no token is mapped to this certificate"))
                : Uni.createFrom().item(token);
    }

    private static String cn(X509Certificate certificate) {
        try {
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return String.valueOf(rdn.getValue());
                }
            }
        } catch (InvalidNameException e) {
            return "";
        }
        return "";
    }
}
