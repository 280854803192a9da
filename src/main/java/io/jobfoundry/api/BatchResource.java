package io.jobfoundry.api;

import io.jobfoundry.jobs.JobBatches;
import io.jobfoundry.auth.Role;
import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.model.CallKey;
import io.jobfoundry.jobs.model.DataTooLargeException;
import io.jobfoundry.jobs.model.FinishItem;
import io.jobfoundry.jobs.model.HeartbeatItem;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.NewJob;
import io.jobfoundry.repeat.RepeatException;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The batch calls (API.md, "Batches"): many creates, finishes or heartbeats per request, each
 * batch one store transaction, answered on the event loop when it commits. Every item is read
 * and checked before anything changes; a batch with invalid items is a {@code 400} listing them.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
public class BatchResource {

    private final JobBatches batches;
    private final CallerJobs callers;
    private final RequestBodies bodies;

    BatchResource(JobEngine engine, CallerJobs callers, RequestBodies bodies) {
        this.batches = engine.batches();
        this.callers = callers;
        this.bodies = bodies;
    }

    @Operation(operationId = "createJobs", summary = "Add many jobs in one transaction",
            description = "Each item is a create (no id) or a PUT (with id) of its type. Every item is checked first: "
                    + "if any is invalid nothing is created and the answer is 400 with errors. Each job at most once "
                    + "per batch; 1-1000 items, 8 MiB of data in all. Under an Idempotency-Key every item names its "
                    + "job (an id).")
    @Tag(name = "Batches")
    @RequestBody(ref = "CreateJobs")
    @APIResponse(responseCode = "200", description = "The jobs, in the items' order, each with 201 (added) or 200")
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "409", ref = "Conflict")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER) // described by ParameterDocs
    @RolesAllowed(Role.PRODUCER_NAME)
    @POST
    @Path("jobs")
    public CompletionStage<BatchAnswerDto.Created> createAll(@HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            @Context HttpServerRequest request, byte[] body) {
        CallKey key = IdempotencyKeys.of(request);
        List<NewJob> jobs = read(contentType, body, (item, i) -> {
            NewJob job = new NewJob(item.requiredString("type"), item.string("id").orElse(null),
                    JobBodies.changes(item, "type", "id"));
            batches.check(job);
            return job;
        }, job -> job.id() == null ? null : job.type() + '\u0000' + job.id());
        return Suspended.onRequestContext(callers.jobs().createAll(jobs, key), BatchAnswerDto.Created::of);
    }

    @Operation(operationId = "finishJobs", summary = "Finish many runs in one transaction",
            description = "Each item is a finish under its lease. Items are independent: a halted item answers its "
                    + "409 and reason, and the others still finish.")
    @Tag(name = "Batches")
    @RequestBody(ref = "FinishJobs")
    @APIResponse(responseCode = "200", description = "One result per item, in order: 200 with the job, or 409 with reason")
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.WORKER_NAME)
    @POST
    @Path("finish")
    public CompletionStage<BatchAnswerDto.Results> finishAll(@HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            byte[] body) {
        List<FinishItem> items = read(contentType, body, (item, i) -> {
            item.allow("type", "id", "lease", "outcome", "data", "error");
            FinishItem finish = new FinishItem(item.requiredString("type"), item.requiredString("id"),
                    item.requiredString("lease"), JobBodies.succeeded(item),
                    item.jsonObject("data"), item.nullableString("error").orElse(null));
            batches.check(finish);
            return finish;
        }, finish -> finish.type() + '\u0000' + finish.id());
        return Suspended.onRequestContext(callers.jobs().finishAll(items), BatchAnswerDto.Results::of);
    }

    @Operation(operationId = "heartbeatJobs", summary = "Heartbeat many runs in one transaction",
            description = "Each item is a heartbeat under its lease; items are independent, as with finishes.")
    @Tag(name = "Batches")
    @RequestBody(ref = "HeartbeatJobs")
    @APIResponse(responseCode = "200", description = "One result per item, in order: 200 with the job, or 409 with reason")
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.WORKER_NAME)
    @POST
    @Path("heartbeat")
    public CompletionStage<BatchAnswerDto.Results> heartbeatAll(@HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            byte[] body) {
        List<HeartbeatItem> items = read(contentType, body, (item, i) -> {
            item.allow("type", "id", "lease", "data");
            HeartbeatItem heartbeat = new HeartbeatItem(item.requiredString("type"), item.requiredString("id"),
                    item.requiredString("lease"), item.jsonObject("data"));
            batches.check(heartbeat);
            return heartbeat;
        }, heartbeat -> heartbeat.type() + '\u0000' + heartbeat.id());
        return Suspended.onRequestContext(callers.jobs().heartbeatAll(items), BatchAnswerDto.Results::of);
    }

    /**
     * The items of {@code {"jobs": [...]}}, each read and checked by {@code item}; every invalid one,
     * and every job named twice ({@code key}), is collected into one {@link InvalidBatchException}.
     */
    private <T> List<T> read(String contentType, byte[] body, BiFunction<JsonBody, Integer, T> item,
            Function<T, String> key) {
        JsonBody request = bodies.read(contentType, body).allow("jobs");
        List<JsonBody> given = request.objects("jobs")
                .orElseThrow(() -> new InvalidInputException("jobs", "jobs is required: an array of 1 to "
                        + JobBatches.MAX_ITEMS + " items"));
        if (given.isEmpty() || given.size() > JobBatches.MAX_ITEMS) {
            throw new InvalidInputException("jobs", "a batch holds 1 to " + JobBatches.MAX_ITEMS + " items, not "
                    + given.size());
        }
        List<T> items = new ArrayList<>(given.size());
        List<InvalidBatchException.ItemError> errors = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < given.size(); i++) {
            try {
                T read = item.apply(given.get(i), i);
                String named = key.apply(read);
                if (named != null && !seen.add(named)) {
                    errors.add(new InvalidBatchException.ItemError(i, null,
                            "this job is in the batch already: each job at most once per batch"));
                }
                items.add(read);
            } catch (InvalidInputException e) {
                errors.add(new InvalidBatchException.ItemError(i, e.field(), e.getMessage()));
            } catch (InvalidJobRequestException e) {
                errors.add(new InvalidBatchException.ItemError(i, "jobs[" + i + "]." + e.field(), e.getMessage()));
            } catch (RepeatException e) {
                errors.add(new InvalidBatchException.ItemError(i, "jobs[" + i + "].repeat", e.detail()));
            } catch (DataTooLargeException e) {
                errors.add(new InvalidBatchException.ItemError(i, "jobs[" + i + "].data",
                        "data is " + e.size() + " bytes serialized; at most " + e.limit() + " are allowed"));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidBatchException(errors);
        }
        return items;
    }
}
