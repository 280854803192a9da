package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobFilter;
import io.jobfoundry.jobs.model.JobPage;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Pages through a type's jobs in id order, with the cursors a listing hands out. */
public final class Listing {

    /** Jobs a page looks at at most, however few of them its filters keep. */
    static final int SCAN_LIMIT = 5_000;

    private Listing() {
    }

    /**
     * Jobs of a type in id order, optionally of one state, result and group, after the job {@code after}
     * (a decoded cursor). A page may hold fewer than {@code limit} jobs while {@code next} is not
     * null: filters scan at most a bounded number of jobs per call.
     */
    public static JobPage page(KvReads tx, String type, JobState state, JobResult result, String group, int limit,
            String after) {
        List<Job> jobs = new ArrayList<>();
        JobFilter filter = new JobFilter(null, state, result, group);
        Scan scan = scan(tx, type, filter, after, limit, SCAN_LIMIT, jobs);
        return new JobPage(jobs, scan.more() && scan.lastSeen() != null ? encodeCursor(scan.lastSeen()) : null);
    }

    /**
     * How far a {@link #scan} got: the last id it looked at ({@code after} if none), how many jobs it
     * looked at, and whether the type may hold jobs after that id that it did not look at.
     */
    record Scan(String lastSeen, int scanned, boolean more) {
    }

    /**
     * Adds to {@code into} the jobs of {@code type} after {@code after} (from the first if null), in id
     * order, that {@code filter} matches, until it holds {@code limit} or {@code budget} jobs were
     * looked at. Shared by the listing of one type and the listing across types
     * ({@link CrossListing}), so that both page and bound their scans alike.
     */
    static Scan scan(KvReads tx, String type, JobFilter filter, String after, int limit, int budget, List<Job> into) {
        byte[] from = after == null ? JobKeys.jobsBegin(type) : JobKeys.jobsAfter(type, after);
        String lastSeen = after;
        int scanned = 0;
        while (into.size() < limit && scanned < budget) {
            // One more than still wanted: a job beyond a full page tells there is a next page.
            int want = Math.min(limit - into.size() + 1, 500);
            List<KeyValue> chunk = tx.getRange(from, JobKeys.jobsEnd(type), want);
            for (KeyValue kv : chunk) {
                if (into.size() == limit) {
                    return new Scan(lastSeen, scanned, true);
                }
                String id = JobKeys.idOfJob(kv.key());
                scanned++;
                lastSeen = id;
                JobRecord r = JobRecord.decode(type, id, kv.value());
                if (filter.matches(r.state, r.result, r.group)) {
                    into.add(r.view());
                }
            }
            if (chunk.size() < want) {
                return new Scan(lastSeen, scanned, false);
            }
            from = JobKeys.jobsAfter(type, lastSeen);
        }
        return new Scan(lastSeen, scanned, true);
    }

    private static String encodeCursor(String id) {
        return Cursors.encode(id.getBytes(StandardCharsets.UTF_8));
    }

    /** The job id a cursor of {@link #page} stands for; a cursor this service did not hand out is {@code 400}. */
    public static String decodeCursor(String cursor) {
        return Cursors.decode(cursor, bytes -> {
            String id = new String(bytes, StandardCharsets.UTF_8); // bad UTF-8 becomes U+FFFD, which packs back otherwise
            TypeNames.checkId(id);
            return id;
        }, id -> id.getBytes(StandardCharsets.UTF_8), "");
    }
}
