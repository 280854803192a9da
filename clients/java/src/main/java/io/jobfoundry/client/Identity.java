package io.jobfoundry.client;

import java.util.List;

/**
 * The caller as the service sees it ({@link Operations#me()}).
 *
 * @param name the token's name; {@code "anonymous"} without one (open mode, or loopback in protected mode)
 * @param roles the effective roles in the service's order ({@code viewer}, {@code producer}, {@code worker},
 *     {@code admin}): {@code admin} includes the others, {@code producer} and {@code worker} include {@code viewer}
 * @param types the type globs the token may touch, or {@code null} for every type
 */
public record Identity(String name, List<String> roles, List<String> types) {
}
