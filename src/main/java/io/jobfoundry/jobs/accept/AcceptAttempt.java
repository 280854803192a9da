package io.jobfoundry.jobs.accept;

import io.jobfoundry.jobs.context.JobObserver;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.jobs.records.JobRecord;
import io.jobfoundry.jobs.records.Times;
import io.jobfoundry.jobs.records.Tokens;
import io.jobfoundry.jobs.records.TypeRegistry;
import io.jobfoundry.kv.KvReads;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.TupleReader;
import io.jobfoundry.kv.TupleWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The transaction body of one accept: the jobs the {@link Acceptor} chooses go to the claims in
 * order, each under a lease drawn before the transaction. It runs as a transaction of its own (an
 * accept or a dispatcher's round) or inside the one that adds a job (a hand-off to a blocked
 * accept). Like every engine operation it is safe to run again: a committed attempt leaves an
 * outcome record under this accept's nonce, and a retry hands out exactly what that attempt took.
 */
public final class AcceptAttempt {

    private static final Logger LOG = Logger.getLogger(AcceptAttempt.class);

    private final Acceptor acceptor;
    private final List<String> patterns;
    private final List<Claim> claims;
    private final long now;
    private final long maxAt;
    private final String nonce = Tokens.next();
    /** Where this accept starts among the types each glob matches; the same for every attempt of it. */
    private final Map<String, Integer> turns = new HashMap<>();
    private final List<List<String>> leases;
    private final int wanted;
    /** The moves of the attempt that ran last: the one that committed, once the transaction has. */
    private volatile Acceptor.Round round;
    /** The job just added that this attempt may take, and no other ({@link #onlyAdded}); null: any. */
    private String addedType;
    private String addedId;

    AcceptAttempt(Acceptor acceptor, List<String> patterns, Instant maxScheduledAt, List<Claim> claims,
            long now) {
        this.acceptor = acceptor;
        this.patterns = patterns;
        this.claims = claims;
        this.now = now;
        // Not bounded by now: the ready index holds only jobs due by the clock of whoever placed
        // them, and a job an add placed after this accept read the clock (or on a replica whose
        // clock runs ahead) would be passed over, while the watch this round sets has seen it.
        this.maxAt = maxScheduledAt == null ? Long.MAX_VALUE : Times.micros(maxScheduledAt);
        this.leases = new ArrayList<>(claims.size());
        int total = 0;
        for (Claim claim : claims) {
            List<String> own = new ArrayList<>(claim.max());
            for (int i = 0; i < claim.max(); i++) {
                own.add(Tokens.next());
            }
            leases.add(own);
            total += claim.max();
        }
        this.wanted = total;
        for (String pattern : patterns) {
            if (TypeNames.isGlob(pattern) && !turns.containsKey(pattern)) {
                turns.put(pattern, acceptor.nextTurn(pattern));
            }
        }
    }

    /**
     * This attempt takes the job {@code id} of {@code type}, which its transaction adds, or
     * nothing: a hand-off on a store whose transactions run at once.
     */
    AcceptAttempt onlyAdded(String type, String id) {
        this.addedType = type;
        this.addedId = id;
        return this;
    }

    /**
     * Takes the jobs in {@code tx}. With {@code watch}, if a claim is still short, the batch
     * carries a {@link ReadyWatch} on the ready counters of these types, for the caller to arm once
     * {@code tx} has committed: set in {@code tx} if it wrote nothing, otherwise read here and set
     * afterwards, so that no job can slip in between unnoticed (couch_jobs) and yet a transaction
     * that writes takes no read conflict on counters every new job adds to.
     */
    public AcceptBatch run(KvTransaction tx, boolean watch) {
        byte[] outcomeKey = JobKeys.outcome(now, nonce);
        byte[] outcome = tx.get(outcomeKey);
        List<List<LeasedJob>> result = new ArrayList<>(claims.size());
        for (int i = 0; i < claims.size(); i++) {
            result.add(new ArrayList<>());
        }
        if (outcome != null) {
            int replayed = replay(tx, outcome, result);
            round = acceptor.replayed(result.stream().flatMap(List::stream).map(LeasedJob::job).toList(),
                    type -> TypeRegistry.find(tx, type));
            // Jobs that became ready since the first attempt bumped the watch key before any
            // watch armed now could see it: a short replayed round asks for another at once.
            return new AcceptBatch(result, watch && replayed < wanted ? ReadyWatch.AT_ONCE : ReadyWatch.NONE, null);
        }
        Acceptor.Round attempt = acceptor.round();
        round = attempt;
        long rateFree = Long.MAX_VALUE;
        TupleWriter record = TupleWriter.withCapacity(64);
        int handed = 0;
        int claim = 0;
        for (String type : addedId != null ? List.of(addedType) : resolveTypes(tx)) {
            if (handed == wanted) {
                break;
            }
            TypeRegistry.Registered registered = TypeRegistry.lookup(tx, type);
            // A paused type hands out nothing; the read conflicts with a pause that commits meanwhile.
            if (registered == null || registered.paused()) {
                continue;
            }
            TypeSettings settings = registered.settings();
            Limits limits = Limits.of(tx, type, settings, now);
            List<JobRecord> taken = addedId != null ? acceptor.takeAdded(attempt, tx, type, settings, addedId, maxAt, limits)
                    : acceptor.take(attempt, tx, type, settings, wanted - handed, maxAt, limits);
            if (limits != null) {
                rateFree = Math.min(rateFree, limits.nextFree());
            }
            for (JobRecord r : taken) {
                while (result.get(claim).size() == claims.get(claim).max()) {
                    claim++;
                }
                String lease = leases.get(claim).get(result.get(claim).size());
                r.startRunning(tx, lease, claims.get(claim).worker(), now, handed++);
                result.get(claim).add(new LeasedJob(r.view(), lease));
                record.add(r.type()).add(r.id()).add(lease);
            }
        }
        if (handed > 0) {
            tx.set(outcomeKey, record.pack());
        }
        boolean waiting = watch && handed < wanted;
        // A round that takes nothing for its waiters keeps one empty group's marker: as a rule the
        // group a job was last taken from, left marked by the transaction that took it (a job handed
        // over in the transaction that added it, a group's last job). Clearing only that would make
        // the round a writing one, whose watch costs its waiters a transaction of its own.
        boolean cleared = acceptor.clearEmptyGroups(attempt, tx, waiting && handed == 0 ? 1 : 0);
        ReadyWatch wake = waiting ? ReadyWatch.of(tx, readyCounters(), handed > 0 || cleared) : ReadyWatch.NONE;
        // A rate limit frees by time, which no watch sees: the waiters also need a timer then.
        return new AcceptBatch(result, wake, waiting && rateFree != Long.MAX_VALUE ? Times.instant(rateFree) : null);
    }

    /** The counters a job of these patterns adds to when it becomes ready: a glob's is the global one. */
    private List<byte[]> readyCounters() {
        if (patterns.stream().anyMatch(TypeNames::isGlob)) {
            return List.of(JobKeys.anyReadyWatch());
        }
        List<byte[]> counters = new ArrayList<>();
        for (String type : new LinkedHashSet<>(patterns)) {
            counters.add(JobKeys.readyWatch(type));
        }
        return counters;
    }

    /**
     * After the transaction committed: the fairness moves of the attempt that committed reach the
     * acceptor, and the observer hears of each job handed out.
     */
    public AcceptBatch committed(AcceptBatch batch, JobObserver observer) {
        round.commit();
        try {
            for (List<LeasedJob> handed : batch.jobs()) {
                for (LeasedJob leased : handed) {
                    Job job = leased.job();
                    // A job cannot have waited before it existed: one made with a scheduledAt in
                    // the past (valid back to the year 0000) has waited since it was made.
                    Instant due = job.scheduledAt().isAfter(job.createdAt()) ? job.scheduledAt() : job.createdAt();
                    observer.accepted(job.type(), Times.elapsedForMetrics(Times.micros(due), Times.micros(job.startedAt())));
                }
            }
        } catch (RuntimeException e) {
            // The jobs are running under leases only this answer carries: metrics must not lose them.
            LOG.error("reporting an accept to the metrics failed; the accept stands", e);
        }
        return batch;
    }

    /** A retried accept whose first attempt committed: the same jobs, to the same claims. */
    private int replay(KvTransaction tx, byte[] outcome, List<List<LeasedJob>> result) {
        TupleReader taken = TupleReader.of(outcome);
        int replayed = 0;
        while (taken.hasNext()) {
            JobRecord r = JobRecord.load(tx, taken.string(), taken.string());
            String lease = taken.string();
            if (r == null || !lease.equals(r.lease())) {
                continue;
            }
            for (int claim = 0; claim < leases.size(); claim++) {
                if (leases.get(claim).contains(lease)) {
                    result.get(claim).add(new LeasedJob(r.view(), lease));
                    replayed++;
                }
            }
        }
        return replayed;
    }

    /**
     * Exact names as given, globs against the registry; each type once, in request order: a list
     * says which type comes first. The types one glob matches have no order of their own, so they
     * take turns: each accept with that glob starts them one further along ({@link #turns}).
     */
    private List<String> resolveTypes(KvReads tx) {
        Set<String> types = new LinkedHashSet<>();
        List<String> known = null;
        for (String pattern : patterns) {
            if (!TypeNames.isGlob(pattern)) {
                types.add(pattern);
                continue;
            }
            if (known == null) {
                known = TypeRegistry.names(tx);
            }
            List<String> matched = new ArrayList<>();
            for (String name : known) {
                if (TypeNames.matches(pattern, name)) {
                    matched.add(name);
                }
            }
            for (int i = 0; i < matched.size(); i++) {
                types.add(matched.get(Math.floorMod(turns.get(pattern) + i, matched.size())));
            }
        }
        return new ArrayList<>(types);
    }
}
