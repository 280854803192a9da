package io.jobfoundry.api;

import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.model.RateLimit;
import io.jobfoundry.jobs.model.TypeSettings;
import java.util.function.UnaryOperator;

/**
 * The {@code concurrency} and {@code rateLimit} members of a type's settings, read and checked
 * before the transaction; the change they make is applied to the settings read in it. {@code null}
 * lifts a limit; members left out keep the current value.
 */
final class LimitsBody {

    private LimitsBody() {
    }

    /** The change {@code request}'s limits make, or the identity if it names none. */
    static UnaryOperator<TypeSettings> change(JsonBody request) {
        UnaryOperator<TypeSettings> concurrency = concurrency(request);
        UnaryOperator<TypeSettings> rate = rateLimit(request);
        return settings -> rate.apply(concurrency.apply(settings));
    }

    private static UnaryOperator<TypeSettings> concurrency(JsonBody request) {
        if (request.isNull("concurrency")) {
            return settings -> settings.withLimits(Concurrency.NONE, settings.rateLimit());
        }
        JsonBody body = request.object("concurrency").map(c -> c.allow("max", "perGroup")).orElse(null);
        if (body == null) {
            return UnaryOperator.identity();
        }
        var max = body.integerOrNull("max", 1, Concurrency.MAX_LIMIT);
        var perGroup = body.integerOrNull("perGroup", 1, Concurrency.MAX_LIMIT);
        return settings -> settings.withLimits(new Concurrency(max.orElse(settings.concurrency().max()),
                perGroup.orElse(settings.concurrency().perGroup())), settings.rateLimit());
    }

    private static UnaryOperator<TypeSettings> rateLimit(JsonBody request) {
        if (request.isNull("rateLimit")) {
            return settings -> settings.withLimits(settings.concurrency(), null);
        }
        JsonBody body = request.object("rateLimit").map(r -> r.allow("count", "seconds", "perGroup")).orElse(null);
        if (body == null) {
            return UnaryOperator.identity();
        }
        var count = body.integer("count", 1, RateLimit.MAX_COUNT);
        var seconds = body.seconds("seconds", RateLimit.SHORTEST_WINDOW, RateLimit.LONGEST_WINDOW);
        var perGroup = body.bool("perGroup");
        return settings -> {
            RateLimit current = settings.rateLimit();
            if (current == null && (count.isEmpty() || seconds.isEmpty())) {
                throw new InvalidInputException(count.isEmpty() ? "rateLimit.count" : "rateLimit.seconds",
                        "rateLimit.count and rateLimit.seconds are required to set a rate limit");
            }
            return settings.withLimits(settings.concurrency(), new RateLimit(
                    count.orElseGet(() -> current.count()), seconds.orElseGet(() -> current.window()),
                    perGroup.orElse(current != null && current.perGroup())));
        };
    }
}
