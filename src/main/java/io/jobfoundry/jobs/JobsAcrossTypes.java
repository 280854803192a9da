package io.jobfoundry.jobs;

import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.model.BulkAction;
import io.jobfoundry.jobs.model.BulkResult;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.JobFilter;
import io.jobfoundry.jobs.model.JobPage;
import io.jobfoundry.jobs.records.Bulk;
import io.jobfoundry.jobs.records.CrossListing;
import io.jobfoundry.jobs.records.Tokens;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * The jobs of every type a filter covers: the listing across types ({@code GET /v1/jobs}) and the
 * bulk actions over it ({@code POST /v1/bulk}). Both take, apart from the filter's glob, the types
 * the caller may see as a predicate ({@code scope}), which access scopes narrow.
 *
 * <p>A bulk action cancels, retries or removes every job a filter matches, up to a limit. The jobs
 * are found with the listing across types, a page at a time in a read-only transaction, and each page is acted on in a transaction of its own ({@link Bulk#step}), which
 * checks each job again. So a bulk holds no transaction longer than one page takes, and a job that
 * changed between the listing and its step is left alone; the bulk as a whole is not atomic: a
 * failure part way leaves the steps before it done, and running it again does the rest.
 */
final class JobsAcrossTypes {

    private static final Logger LOG = Logger.getLogger(JobsAcrossTypes.class);

    private final EngineContext context;

    JobsAcrossTypes(EngineContext context) {
        this.context = context;
    }

    /**
     * Jobs of every type that {@code filter} and {@code scope} both cover, in (type, id) order, paged
     * as one type's listing is: a page may hold fewer than {@code limit} jobs while {@code next} is
     * not null. Types left out are not read.
     */
    JobPage list(JobFilter filter, Predicate<String> scope, int limit, String cursor) {
        if (limit < 1 || limit > 1000) {
            throw new InvalidJobRequestException("limit", "limit must be within 1..1000");
        }
        CrossListing.Position after = cursor == null ? null : CrossListing.decodeCursor(cursor);
        return context.runner().run(tx -> CrossListing.page(tx, filter, scope, limit, after));
    }

    /**
     * Cancels, retries or removes up to {@code limit} jobs that {@code filter} (its glob required)
     * and {@code scope} match.
     */
    BulkResult bulk(BulkAction action, JobFilter filter, Predicate<String> scope, int limit) {
        if (action == null) {
            throw new InvalidJobRequestException("action", "action is cancel, retry or remove");
        }
        if (filter == null || filter.types() == null) {
            throw new InvalidJobRequestException("type",
                    "a bulk action names the types it acts on: type is required (\"*\" for every type)");
        }
        if (limit < 1 || limit > BulkAction.MAX_LIMIT) {
            throw new InvalidJobRequestException("limit", "limit must be within 1.." + BulkAction.MAX_LIMIT);
        }
        BulkResult done = BulkResult.NONE;
        CrossListing.Position after = null;
        do {
            int want = (int) Math.min(Bulk.STEP, limit - done.matched());
            CrossListing.Position from = after;
            JobPage page = context.runner().run(tx -> CrossListing.page(tx, filter, scope, want, from));
            if (!page.jobs().isEmpty()) {
                // Drawn once per step, so that every attempt of the step recognizes its own commit.
                long now = context.now();
                String nonce = Tokens.next();
                done = done.plus(context.runner().run(tx -> Bulk.step(tx, action, filter, page.jobs(), now, nonce)));
            }
            after = page.next() == null ? null : CrossListing.decodeCursor(page.next());
        } while (after != null && done.matched() < limit);
        // The caller's audit line (ScopedJobs) says it at INFO, with who asked.
        LOG.debugf("bulk %s on %s: %d matched, %d changed", action.wireName(), filter.describe(), done.matched(),
                done.changed());
        return done;
    }
}
