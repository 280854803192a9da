package io.jobfoundry.service;

import java.util.Locale;
import org.eclipse.microprofile.config.spi.Converter;

/**
 * A switch read as written, or refused. MicroProfile Config reads every text it does not know as
 * {@code false}, so {@code jobfoundry.monitor.enabled=ture} would switch the monitors off, and
 * with them the return of crashed workers' jobs, with nothing but a start that looks normal.
 */
public final class StrictBoolean implements Converter<Boolean> {

    @Override
    public Boolean convert(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> Boolean.TRUE;
            case "false", "no", "off", "0" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException(
                    "expected true or false (or yes/no, on/off, 1/0), not \"" + value + "\"");
        };
    }
}
