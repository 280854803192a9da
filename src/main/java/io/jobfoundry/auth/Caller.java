package io.jobfoundry.auth;

import io.jobfoundry.jobs.model.TypeScope;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What the service knows of whoever calls: a name (a token's name, never the token), roles and
 * the types it is confined to, carried as a {@link SecurityIdentity} so that Quarkus Security's
 * role checks apply. Identities are made once per token at start and shared by its requests.
 */
public final class Caller {

    /** The identity attribute holding the caller's {@link TypeScope}. */
    static final String SCOPE = "jobfoundry.scope";

    /** The name of the caller in open or loopback protected mode, where no token is needed. */
    public static final String ANONYMOUS = "anonymous";

    private Caller() {
    }

    static SecurityIdentity identity(String name, Set<Role> roles, TypeScope scope) {
        QuarkusSecurityIdentity.Builder builder = QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(name)).addAttribute(SCOPE, scope);
        for (Role role : effective(roles)) {
            builder.addRole(role.wireName());
        }
        return builder.build();
    }

    /** Every role of every kind, every type: the open and loopback caller. */
    static SecurityIdentity anonymous() {
        return identity(ANONYMOUS, EnumSet.allOf(Role.class), TypeScope.all());
    }

    /** The roles {@code roles} grant with those they include, in the order of {@link Role}. */
    static Set<Role> effective(Set<Role> roles) {
        Set<Role> all = EnumSet.noneOf(Role.class);
        roles.forEach(role -> all.addAll(role.implied()));
        return all;
    }

    /** The types {@code identity} may touch; none for an identity this package did not make. */
    public static TypeScope scope(SecurityIdentity identity) {
        Object scope = identity.getAttribute(SCOPE);
        return scope instanceof TypeScope known ? known : TypeScope.none();
    }

    public static String name(SecurityIdentity identity) {
        return identity.isAnonymous() ? ANONYMOUS : identity.getPrincipal().getName();
    }

    /** The caller's roles, in the order viewer, producer, worker, admin. */
    public static List<String> roles(SecurityIdentity identity) {
        List<String> roles = new ArrayList<>();
        for (Role role : Role.values()) {
            if (identity.hasRole(role.wireName())) {
                roles.add(role.wireName());
            }
        }
        return roles;
    }
}
