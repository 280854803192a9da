package io.jobfoundry.auth;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.CertificateCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * A client certificate (mutual TLS, asked for by {@link MutualTls}) is the token whose
 * {@code certificate-cn} is its subject's CN, with that token's roles and types. Quarkus' own mTLS
 * mechanism has verified the certificate against the TLS trust store and made an identity named
 * after the whole subject, without roles; this replaces it with the token's. A trusted
 * certificate whose CN no token names, or whose subject has more than one CN, is refused
 * ({@code 401}) rather than let in with no roles and no types, which every check would have to
 * remember to refuse.
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
        String cn = cn(certificate.getCertificate());
        SecurityIdentity token = cn == null ? null : tokens.byCertificateCn(cn);
        return token == null
                ? Uni.createFrom().failure(new AuthenticationFailedException("no token is mapped to this certificate"))
                : Uni.createFrom().item(token);
    }

    /**
     * The subject's one CN, or null. A subject with two CNs (two RDNs, or one multi-valued RDN like
     * {@code CN=a+CN=b}) is ambiguous: which one names the client depends on who reads it (LDAP
     * order is the reverse of the DN string's), so such a certificate is no token at all.
     */
    static String cn(X509Certificate certificate) {
        List<String> cns = new ArrayList<>();
        try {
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                // Every attribute of the RDN: getType() and getValue() give only the first of a multi-valued one.
                Attribute cn = rdn.toAttributes().get("CN");
                for (int i = 0; cn != null && i < cn.size(); i++) {
                    cns.add(String.valueOf(cn.get(i)));
                }
            }
        } catch (NamingException e) {
            return null;
        }
        return cns.size() == 1 ? cns.get(0) : null;
    }
}
