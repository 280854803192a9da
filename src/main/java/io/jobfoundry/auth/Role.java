package io.jobfoundry.auth;

import java.util.Locale;
import java.util.Set;

/**
 * The four roles of API.md. Each grants the roles below it, so a resource names only the least
 * role a call needs ({@code @RolesAllowed(Role.PRODUCER)}) and an identity carries every role its
 * token's roles imply.
 */
public enum Role {
    VIEWER, PRODUCER, WORKER, ADMIN;

    public static final String VIEWER_NAME = "viewer";
    public static final String PRODUCER_NAME = "producer";
    public static final String WORKER_NAME = "worker";
    public static final String ADMIN_NAME = "admin";

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** This role with the ones it includes: admin everything, producer and worker also viewer. */
    Set<Role> implied() {
        return switch (this) {
            case VIEWER -> Set.of(VIEWER);
            case PRODUCER -> Set.of(PRODUCER, VIEWER);
            case WORKER -> Set.of(WORKER, VIEWER);
            case ADMIN -> Set.of(ADMIN, PRODUCER, WORKER, VIEWER);
        };
    }

    /** The role of a configured name, or null. */
    static Role named(String name) {
        for (Role role : values()) {
            if (role.wireName().equals(name.trim())) {
                return role;
            }
        }
        return null;
    }
}
