package io.jobfoundry.api;

import io.jobfoundry.jobs.model.BatchTooLargeException;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.DataTooLargeException;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.JobConflictException;
import io.jobfoundry.jobs.model.JobNotFoundException;
import io.jobfoundry.jobs.model.TypeInUseException;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.StoreLimitException;
import io.jobfoundry.repeat.RepeatException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Every error as application/problem+json: the engine's expected outcomes, the API's own input
 * errors, the errors of HTTP itself (unknown path, wrong method) and — as {@code 500} — anything
 * else, which is a bug and logged once here.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);
    /** The messages of store failures logged at ERROR already: each is logged once, not per request. */
    private static final Set<String> loggedStoreFailures = ConcurrentHashMap.newKeySet();

    @ServerExceptionMapper
    public Response invalidInput(InvalidInputException e) {
        return withField(ProblemType.INVALID_REQUEST, e.getMessage(), e.field());
    }

    /** Refused by the engine; a batch's item, found only as the batch ran, is answered as the items refused before it. */
    @ServerExceptionMapper
    public Response invalidJobRequest(InvalidJobRequestException e) {
        if (e.item().isPresent()) {
            return itemErrors(List.of(new InvalidBatchException.ItemError(e.item().getAsInt(), e.field(),
                    e.getMessage())));
        }
        return withField(ProblemType.INVALID_REQUEST, e.getMessage(), e.field());
    }

    @ServerExceptionMapper
    public Response invalidRepeat(RepeatException e) {
        return withField(ProblemType.INVALID_REQUEST, e.detail(), "repeat");
    }

    @ServerExceptionMapper
    public Response jobNotFound(JobNotFoundException e) {
        return Problems.response(Problems.document(ProblemType.JOB_NOT_FOUND,
                "no job " + Problems.printable(e.id()) + " of type " + Problems.printable(e.type()))).build();
    }

    @ServerExceptionMapper
    public Response typeNotFound(TypeNotFoundException e) {
        return Problems.response(Problems.document(ProblemType.TYPE_NOT_FOUND, e.getMessage())).build();
    }

    @ServerExceptionMapper
    public Response halt(HaltException e) {
        Map<String, Object> problem = Problems.document(ProblemType.HALT, haltDetail(e));
        problem.put("reason", e.reason().wireName());
        return Problems.response(problem).build();
    }

    /** Why the lease is no longer valid, told by what the job is doing: a made-up lease must not hear of a timeout. */
    private static String haltDetail(HaltException e) {
        return switch (e.reason()) {
            case REMOVED -> "no job " + Problems.printable(e.id()) + " of type " + Problems.printable(e.type())
                    + ": it was removed, or never existed";
            case CANCELLED -> "the job was cancelled";
            case LEASE_LOST -> e.state() == null ? "this lease is not the job's current lease" : switch (e.state()) {
                case PENDING -> "the job is pending, so no lease is valid for it: this one ended when the job was"
                        + " taken back from a quiet processor, or was never handed out for it";
                case RUNNING -> "the job runs under another lease: it was taken back from a quiet processor and"
                        + " accepted again, or this lease was never handed out for it";
                case FINISHED -> "the job has finished: this lease ended with its run, or was never handed out for it";
            };
        };
    }

    @ServerExceptionMapper
    public Response conflict(JobConflictException e) {
        Map<String, Object> problem = Problems.document(ProblemType.CONFLICT, e.getMessage());
        problem.put("state", e.state().wireName());
        if (e.field() != null) {
            problem.put("field", e.field());
        }
        e.item().ifPresent(index -> problem.put("index", index));
        return Problems.response(problem).build();
    }

    /** With the counts that stand in the way, as {@code GET /v1/types/{type}} shows them. */
    @ServerExceptionMapper
    public Response typeInUse(TypeInUseException e) {
        Map<String, Object> problem = Problems.document(ProblemType.TYPE_IN_USE, e.getMessage());
        Counts c = e.counts();
        // A map, as the rest of the document: nothing here is serialized by reflection.
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("pending", c.pending());
        counts.put("due", c.due());
        counts.put("running", c.running());
        counts.put("succeeded", c.succeeded());
        counts.put("failed", c.failed());
        counts.put("cancelled", c.cancelled());
        problem.put("counts", counts);
        return Problems.response(problem).build();
    }

    @ServerExceptionMapper
    public Response dataTooLarge(DataTooLargeException e) {
        Map<String, Object> problem = Problems.document(ProblemType.DATA_TOO_LARGE,
                "data is " + e.size() + " bytes serialized; at most " + e.limit() + " are allowed");
        problem.put("field", "data");
        problem.put("limit", e.limit());
        return Problems.response(problem).build();
    }

    /** Every invalid item of a batch, so that a client mends them all at once. */
    @ServerExceptionMapper
    public Response invalidBatch(InvalidBatchException e) {
        return itemErrors(e.errors());
    }

    private static Response itemErrors(List<InvalidBatchException.ItemError> errors) {
        Map<String, Object> problem = Problems.document(ProblemType.INVALID_REQUEST,
                InvalidBatchException.detail(errors.size()));
        problem.put("errors", errors.stream().map(error -> {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("index", error.index());
            if (error.field() != null) {
                item.put("field", error.field());
            }
            item.put("detail", error.detail());
            return item;
        }).toList());
        return Problems.response(problem).build();
    }

    @ServerExceptionMapper
    public Response batchTooLarge(BatchTooLargeException e) {
        Map<String, Object> problem = Problems.document(ProblemType.DATA_TOO_LARGE, "the batch's data is " + e.size()
                + " bytes serialized; at most " + e.limit() + " fit one batch (one store transaction)");
        problem.put("field", "jobs");
        problem.put("limit", e.limit());
        return Problems.response(problem).build();
    }

    @ServerExceptionMapper
    public Response bodyTooLarge(BodyTooLargeException e) {
        return Problems.response(Problems.bodyTooLarge(e.limit())).build();
    }

    @ServerExceptionMapper
    public Response unsupportedBody(UnsupportedBodyTypeException e) {
        return Problems.response(Problems.document(ProblemType.UNSUPPORTED_MEDIA_TYPE, e.getMessage())).build();
    }

    /**
     * A request that would write more than one store transaction holds (FoundationDB's 10 MB; a
     * value over 100 KB): a batch whose jobs' stored records, not only the data it sends, add up
     * past it. Sending less is the cure, so it is the client's 413, not a store failure.
     */
    @ServerExceptionMapper
    public Response storeLimit(StoreLimitException e) {
        Map<String, Object> problem = Problems.document(ProblemType.DATA_TOO_LARGE, e.wholeTransaction()
                ? "the request would write " + e.size() + " bytes in one store transaction, more than it holds"
                        + " (10 MB with FoundationDB); send fewer jobs per batch"
                : "the request would store " + e.size() + " bytes in one record or key, more than the store takes");
        problem.put("limit", e.wholeTransaction() ? 10_000_000 : 100_000);
        return Problems.response(problem).build();
    }

    @ServerExceptionMapper
    public Response store(StoreException e) {
        if (!e.isTemporary()) {
            return storeFailed(e);
        }
        // One line per failure, with what the store said: a full disk or an unreachable cluster
        // fails every request alike, and a stack each would bury the log. The stack is at DEBUG.
        LOG.warnf("store unavailable: %s%s", e.getMessage(), rootCause(e));
        LOG.debugf(e, "store unavailable");
        return Problems.response(Problems.document(ProblemType.STORE_UNAVAILABLE, (e.isOutOfRoom()
                ? "the store is full (its disk, or jobfoundry.embedded.max-size): make room (retention, a bulk remove"
                        + " of finished jobs) or give it more; "
                : "") + "the store did not complete the operation, which may or may not have taken effect; "
                        + "PUT, PATCH, cancel, resubmit, heartbeat and finish are safe to repeat (docs/api.md)"))
                .header("Retry-After", "1").build();
    }

    /**
     * A store that cannot serve until the service restarts (its log could not be synced, a
     * non-retryable error of the cluster), or a defect the store caught: retrying the request
     * cannot help, so it is not a 503. Each such failure is logged once, with its stack; every
     * request it fails after that only at DEBUG, as the liveness probe reports it meanwhile.
     */
    private Response storeFailed(StoreException e) {
        if (loggedStoreFailures.size() < 100 && loggedStoreFailures.add(e.getClass().getName() + ": " + e.getMessage())) {
            LOG.error("the store failed and cannot serve this request; requests it fails are logged at DEBUG from now", e);
        } else {
            LOG.debugf(e, "the store failed");
        }
        return Problems.response(Problems.document(ProblemType.STORE_FAILED,
                "the store failed; the operation may or may not have taken effect, and the failure has been logged"))
                .build();
    }

    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? "" : " (" + root + ")";
    }

    /** HTTP's own errors: no resource at the path, a method it does not take, an unacceptable Accept. */
    @ServerExceptionMapper
    public Response http(WebApplicationException e, UriInfo uri, HttpHeaders headers) {
        Response original = e.getResponse();
        int status = original.getStatus();
        String contentType = headers == null ? null : headers.getHeaderString(HttpHeaders.CONTENT_TYPE);
        if (status == 400 && contentType != null && !RequestBodies.isMediaType(contentType)) {
            // Quarkus REST refuses a Content-Type it cannot parse before any resource sees the request:
            // a malformed request (400), but one whose detail must name the header, not only "HTTP 400".
            return Problems.response(Problems.document(ProblemType.INVALID_REQUEST, "the Content-Type "
                    + Problems.printable(contentType) + " is not a media type; request bodies are application/json"))
                    .build();
        }
        if (status >= 500) {
            return unexpected(e);
        }
        Response.StatusType type = Response.Status.fromStatusCode(status);
        String title = type == null ? original.getStatusInfo().getReasonPhrase() : type.getReasonPhrase();
        Response.ResponseBuilder response = Problems.response(
                Problems.document("about:blank", title, status, httpDetail(status, uri, original, e)));
        if (original.getHeaderString(HttpHeaders.ALLOW) != null) {
            response.header(HttpHeaders.ALLOW, original.getHeaderString(HttpHeaders.ALLOW));
        }
        return response.build();
    }

    private static String httpDetail(int status, UriInfo uri, Response original, WebApplicationException e) {
        String path = uri == null ? "" : " " + Problems.printable(uri.getPath());
        return switch (status) {
            case 404 -> uri != null && uri.getPath().startsWith("/v1/")
                    ? "no call at" + path + "; the calls are listed in docs/api.md and at /q/openapi"
                    : "nothing at" + path + "; the API lives under /v1 (see docs/api.md)";
            case 405 -> "this method is not allowed at" + path;
            case 406 -> "this API answers application/json (and text/event-stream for events)";
            case 415 -> "request bodies are application/json";
            default -> "the request was refused"
                    + (e.getMessage() == null ? "" : ": " + Problems.printable(e.getMessage()).replace("'", ""));
        };
    }

    private static Response withField(ProblemType type, String detail, String field) {
        Map<String, Object> problem = Problems.document(type, detail);
        if (field != null) {
            problem.put("field", field);
        }
        return Problems.response(problem).build();
    }

    /**
     * A bug: logged here, once, with its stack; the client learns only that it happened. A client
     * that hung up before its answer could be written is not one: nothing can reach it, and its
     * request is counted as nginx counts it, 499.
     */
    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (clientLeft(e)) {
            LOG.debugf("the client left before its answer was written: %s", e);
            return Response.status(CLIENT_CLOSED_REQUEST).build();
        }
        LOG.error("unexpected failure answering a request (a bug)", e);
        return Problems.response(Problems.document(ProblemType.INTERNAL_ERROR,
                "an unexpected error occurred; it has been logged")).build();
    }

    /** nginx's status for a request whose client closed the connection before the answer. */
    static final int CLIENT_CLOSED_REQUEST = 499;

    /** A write to a connection the client closed or reset, anywhere in the chain of causes. */
    static boolean clientLeft(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ClosedChannelException) {
                return true;
            }
            String message = cause.getMessage();
            if (cause instanceof IOException && message != null
                    && (message.contains("Broken pipe") || message.contains("Connection reset by peer"))) {
                return true;
            }
        }
        return false;
    }
}
