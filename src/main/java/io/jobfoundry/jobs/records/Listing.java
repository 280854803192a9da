package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobPage;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Pages through a type's jobs in id order, with the cursors a listing hands out. */
public final class Listing {

    /** Jobs a page looks at at most, however few of them its filters keep. */
    private static final int SCAN_LIMIT = 5_000;

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
        byte[] from = after == null ? JobKeys.jobsBegin(type) : JobKeys.jobsAfter(type, after);
        String lastSeen = null;
        int scanned = 0;
        while (jobs.size() < limit && scanned < SCAN_LIMIT) {
            List<KeyValue> chunk = tx.getRange(from, JobKeys.jobsEnd(type), Math.min(limit + 1, 500));
            for (KeyValue kv : chunk) {
                String id = JobKeys.idOfJob(kv.key());
                if (jobs.size() == limit) {
                    return new JobPage(jobs, encodeCursor(lastSeen));
                }
                scanned++;
                lastSeen = id;
                JobRecord r = JobRecord.decode(type, id, kv.value());
                if ((state == null || r.state == state) && (result == null || r.result == result)
                        && (group == null || group.equals(r.group))) {
                    jobs.add(r.view());
                }
            }
            if (chunk.size() < Math.min(limit + 1, 500)) {
                return new JobPage(jobs, null);
            }
            from = JobKeys.jobsAfter(type, lastSeen);
        }
        return new JobPage(jobs, lastSeen == null ? null : encodeCursor(lastSeen));
    }

    private static String encodeCursor(String id) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(id.getBytes(StandardCharsets.UTF_8));
    }

    /** The job id a cursor of {@link #page} stands for; a cursor this service did not hand out is {@code 400}. */
    public static String decodeCursor(String cursor) {
        try {
            String id = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            TypeNames.checkId(id);
            // Encoding it again gives back the cursor only if it was this service's encoding: no
            // padding, no stray low bits, UTF-8 that did not decode to replacement characters.
            if (!encodeCursor(id).equals(cursor)) {
                throw new IllegalArgumentException("not canonical");
            }
            return id;
        } catch (IllegalArgumentException | InvalidJobRequestException e) {
            throw new InvalidJobRequestException("cursor", "cursor is not one this service handed out");
        }
    }
}
