package io.jobfoundry.api;

import io.jobfoundry.jobs.model.TypeForbiddenException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * {@code 401} and {@code 403} as problem documents, from the resources' role checks, the engine's
 * type scope, and — through {@link ProtectedModeRoute}'s failure handler — the checks Quarkus makes
 * before any resource ({@code /q/metrics}). Each detail says what to do and quotes nothing of the
 * token presented, so no secret is echoed.
 */
public class SecurityProblems {

    static final String CHALLENGE = "Bearer realm=\"jobfoundry\"";

    static final String NO_TOKEN = "send Authorization: Bearer <token> with a token configured under"
            + " jobfoundry.auth.tokens; none was sent, or it is not one of them";

    static final String PROTECTED = "no token is configured, so only clients on this machine (loopback) are"
            + " served: configure tokens with jobfoundry.auth.tokens.\"<name>\".hash and"
            + " jobfoundry.auth.tokens.\"<name>\".roles (README, \"Authentication\"), or start with"
            + " jobfoundry.auth.open=true to serve every client without a token";

    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e) {
        return unauthorized();
    }

    @ServerExceptionMapper
    public Response authenticationFailed(AuthenticationFailedException e) {
        return unauthorized();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return Problems.response(Problems.document(ProblemType.FORBIDDEN,
                "the token's roles do not allow this call (GET /v1/me lists them)")).build();
    }

    @ServerExceptionMapper
    public Response typeForbidden(TypeForbiddenException e) {
        Map<String, Object> problem = Problems.document(ProblemType.FORBIDDEN,
                "the token is confined to other types than " + Problems.printable(e.type()));
        return Problems.response(problem).build();
    }

    private static Response unauthorized() {
        return Problems.response(Problems.document(ProblemType.UNAUTHORIZED, NO_TOKEN))
                .header("WWW-Authenticate", CHALLENGE).build();
    }

    /** The same answers for a route outside JAX-RS; false if {@code ctx} did not fail for security. */
    static boolean answer(RoutingContext ctx) {
        Throwable failure = ctx.failure();
        if (ctx.response().headWritten()) {
            return false;
        }
        if (failure instanceof UnauthorizedException || failure instanceof AuthenticationFailedException
                || failure == null && ctx.statusCode() == 401) {
            ctx.response().putHeader("WWW-Authenticate", CHALLENGE);
            end(ctx, Problems.document(ProblemType.UNAUTHORIZED, NO_TOKEN));
            return true;
        }
        if (failure instanceof ForbiddenException || failure == null && ctx.statusCode() == 403) {
            end(ctx, Problems.document(ProblemType.FORBIDDEN, "the token's roles do not allow this call"));
            return true;
        }
        return false;
    }

    static void end(RoutingContext ctx, Map<String, Object> problem) {
        ctx.response().setStatusCode((Integer) problem.get("status"))
                .putHeader(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE).end(Problems.json(problem));
    }
}
