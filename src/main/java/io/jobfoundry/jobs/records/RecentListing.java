package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobPage;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A type's finished jobs, the most recently finished first: what an operator looks for after an
 * incident ("today's failures"), which the listing in id order finds only by paging through every
 * job. Read from the index retention reads ({@code ("f", type, result, finishedAt, id)}), backwards,
 * one range per result merged by finish time; the records its keys name are read a batch at a time,
 * each batch's reads issued together, and a page looks at no more jobs than a page in id order.
 */
public final class RecentListing {

    private static final JobResult[] EVERY_RESULT = JobResult.values();
    /** Keys taken at least at once when a group filter may keep few of them. */
    private static final int MIN_FILTERED_BATCH = 100;

    private RecentListing() {
    }

    /** Where a page stopped: the finish time and id of the last job it looked at. */
    public record Position(long finishedAt, String id) {
    }

    /**
     * Finished jobs of {@code type}, of {@code result} if not null, of {@code group} if not null,
     * most recently finished first (in one millisecond: the id greater in UTF-8 byte order first),
     * after {@code after} (a decoded cursor; from the latest if null). As with the listing in id
     * order, a page looks at a bounded number of jobs, so a page filtered by group may hold fewer
     * than {@code limit} while {@code next} is not null.
     */
    public static JobPage page(KvReads tx, String type, JobResult result, String group, int limit, Position after) {
        JobResult[] results = result == null ? EVERY_RESULT : new JobResult[] {result};
        List<Backwards> ranges = new ArrayList<>(results.length);
        for (JobResult r : results) {
            ranges.add(new Backwards(tx, type, r, after, Math.min(limit + 1, 500)));
        }
        List<Job> jobs = new ArrayList<>();
        Position last = after;
        int scanned = 0;
        while (jobs.size() < limit && scanned < Listing.SCAN_LIMIT) {
            // The records of a batch of keys are read together (one round trip on FoundationDB, not
            // one per job); a filter that keeps few reads larger batches than the page still needs.
            int want = Math.min(Math.max(limit - jobs.size(), group == null ? 0 : MIN_FILTERED_BATCH),
                    Listing.SCAN_LIMIT - scanned);
            List<Taken> batch = new ArrayList<>(want);
            for (Taken next = latest(ranges); next != null; next = batch.size() < want ? latest(ranges) : null) {
                batch.add(next);
            }
            if (batch.isEmpty()) {
                return new JobPage(jobs, null);
            }
            List<byte[]> keys = new ArrayList<>(batch.size());
            batch.forEach(taken -> keys.add(JobKeys.job(type, taken.key().id())));
            List<byte[]> values = tx.getAll(keys);
            for (int i = 0; i < batch.size(); i++) {
                if (jobs.size() == limit) {
                    return new JobPage(jobs, encodeCursor(last)); // the rest of the batch: the next page's
                }
                Taken taken = batch.get(i);
                scanned++;
                last = new Position(taken.key().at(), taken.key().id());
                JobRecord r = values.get(i) == null ? null : JobRecord.decode(type, taken.key().id(), values.get(i));
                // The key still names the job's finish, as retention asks; the index and the records
                // change in the same transactions, so it always should.
                boolean named = r != null && r.finishedAs(taken.result(), taken.key().at());
                if (named && (group == null || group.equals(r.group))) {
                    jobs.add(r.view());
                }
            }
        }
        boolean more = false;
        for (Backwards range : ranges) {
            more |= range.head() != null;
        }
        return new JobPage(jobs, more ? encodeCursor(last) : null);
    }

    /** A key taken from one result's range. */
    private record Taken(JobResult result, JobKeys.FinishedKey key) {
    }

    /** Takes the latest of the ranges' next keys, or null when every range is done. */
    private static Taken latest(List<Backwards> ranges) {
        Backwards latest = null;
        for (Backwards range : ranges) {
            JobKeys.FinishedKey head = range.head();
            if (head != null && (latest == null || later(head, latest.head()))) {
                latest = range;
            }
        }
        return latest == null ? null : new Taken(latest.result, latest.take());
    }

    /**
     * The merge's order, which must be the index's: finish time, then the id's UTF-8 bytes unsigned
     * (the tuple encoding's order), not {@code String.compareTo}, which orders UTF-16 units and
     * differs for ids mixing characters above U+E000 with ones beyond U+FFFF.
     */
    private static boolean later(JobKeys.FinishedKey a, JobKeys.FinishedKey b) {
        if (a.at() != b.at()) {
            return a.at() > b.at();
        }
        return Arrays.compareUnsigned(a.id().getBytes(StandardCharsets.UTF_8), b.id().getBytes(StandardCharsets.UTF_8))
                > 0;
    }

    /** One result's index keys before a position, read backwards in chunks as they are taken. */
    private static final class Backwards {
        private final KvReads tx;
        private final JobResult result;
        private final byte[] begin;
        private byte[] end;
        private final int chunkSize;
        private List<KeyValue> chunk = List.of();
        private int next;
        private JobKeys.FinishedKey head;
        private boolean done;

        Backwards(KvReads tx, String type, JobResult result, Position after, int chunkSize) {
            this.tx = tx;
            this.result = result;
            this.begin = JobKeys.finishedBegin(type, result);
            this.end = after == null ? JobKeys.finishedEnd(type, result)
                    : JobKeys.finished(type, result, after.finishedAt(), after.id());
            this.chunkSize = chunkSize;
        }

        /** The next key, decoded once; null when the range is done. */
        JobKeys.FinishedKey head() {
            if (head == null && next == chunk.size()) {
                if (done) {
                    return null;
                }
                chunk = tx.getRange(begin, end, chunkSize, true);
                next = 0;
                done = chunk.size() < chunkSize;
                if (chunk.isEmpty()) {
                    return null;
                }
                end = chunk.get(chunk.size() - 1).key(); // the next chunk ends before the last key read
            }
            if (head == null) {
                head = JobKeys.finishedKey(chunk.get(next).key());
            }
            return head;
        }

        JobKeys.FinishedKey take() {
            JobKeys.FinishedKey key = head();
            head = null;
            next++;
            return key;
        }
    }

    /**
     * A cursor of this order: the position's finish time and id, packed as a tuple, which neither
     * the id order's cursors (an id's text, no control characters) nor its own unpack as.
     */
    private static String encodeCursor(Position position) {
        return Cursors.encode(pack(position));
    }

    private static byte[] pack(Position position) {
        return Tuple.from(position.finishedAt(), position.id()).pack();
    }

    /** The position a cursor of {@link #page} stands for; any other cursor is {@code 400}. */
    public static Position decodeCursor(String cursor) {
        return Cursors.decode(cursor, bytes -> {
            Tuple tuple = Tuple.fromBytes(bytes);
            if (tuple.size() != 2) {
                throw new IllegalArgumentException("not a position");
            }
            Position position = new Position(tuple.getLong(0), tuple.getString(1));
            TypeNames.checkId(position.id());
            if (position.finishedAt() < 0) {
                throw new IllegalArgumentException("before 1970");
            }
            return position;
        }, RecentListing::pack, " for order=recent");
    }
}
