package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobFilter;
import io.jobfoundry.jobs.model.JobPage;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.kv.KvReads;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Pages through the jobs of every type a filter covers, in (type, id) order, as {@link Listing}
 * pages through one type's: the same page shape, the same bound on the jobs one page looks at.
 * Types the filter (or the caller's {@code scope}) leaves out are skipped without reading any of
 * their jobs. The cursor is this class's own: a packed (type, id) tuple, or (type) alone once
 * every job of that type has been looked at.
 */
public final class CrossListing {

    private CrossListing() {
    }

    /**
     * Where a page starts: after the job {@code (type, id)}, or after every job of {@code type}
     * when {@code id} is null.
     */
    public record Position(String type, String id) {
    }

    /**
     * Jobs of the types that both {@code filter} and {@code scope} cover, after {@code after}
     * ({@code null}: from the start). A page may hold fewer than {@code limit} jobs while
     * {@code next} is not null: it looks at no more jobs than a page of one type does, and an
     * empty type costs as much as one job.
     */
    public static JobPage page(KvReads tx, JobFilter filter, Predicate<String> scope, int limit, Position after) {
        List<Job> jobs = new ArrayList<>();
        int budget = Listing.SCAN_LIMIT;
        Position last = after;
        // Registrations are in key order, which for type names (ASCII) is String order.
        for (String type : TypeRegistry.names(tx)) {
            if (after != null && (type.compareTo(after.type()) < 0
                    || type.equals(after.type()) && after.id() == null)) {
                continue; // before the cursor
            }
            if (!filter.coversType(type) || !scope.test(type)) {
                continue;
            }
            if (jobs.size() == limit || budget <= 0) {
                return new JobPage(jobs, encodeCursor(last)); // a covered type is still to come
            }
            String from = after != null && type.equals(after.type()) ? after.id() : null;
            Listing.Scan scan = Listing.scan(tx, type, filter, from, limit, budget, jobs);
            budget -= Math.max(1, scan.scanned());
            if (scan.more()) {
                return new JobPage(jobs, encodeCursor(new Position(type, scan.lastSeen())));
            }
            last = new Position(type, null);
        }
        return new JobPage(jobs, null);
    }

    static String encodeCursor(Position position) {
        return Cursors.encode(pack(position));
    }

    private static byte[] pack(Position position) {
        return (position.id() == null ? Tuple.from(position.type()) : Tuple.from(position.type(), position.id())).pack();
    }

    /** The position a cursor of {@link #page} stands for; a cursor this service did not hand out is {@code 400}. */
    public static Position decodeCursor(String cursor) {
        return Cursors.decode(cursor, bytes -> {
            Tuple tuple = Tuple.fromBytes(bytes);
            if (tuple.size() < 1 || tuple.size() > 2) {
                throw new IllegalArgumentException("not a position");
            }
            String type = (String) tuple.get(0);
            String id = tuple.size() == 2 ? (String) tuple.get(1) : null;
            TypeNames.checkType(type);
            if (id != null) {
                TypeNames.checkId(id);
            }
            return new Position(type, id);
        }, CrossListing::pack, "");
    }
}
