package io.jobfoundry.jobs;

import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * The audit trail: one INFO line under {@code jobfoundry.audit} per destructive or operating call,
 * after it succeeded, naming who made it. The line is for people; the same facts go in the log
 * record's context ({@code audit.caller}, {@code audit.action}, {@code audit.type}, and
 * {@code audit.job} for one job), so that a JSON log (a collector, a SIEM) can select and count
 * them without parsing sentences.
 */
final class Audit {

    private static final Logger LOG = Logger.getLogger("jobfoundry.audit");
    private static final String CALLER = "audit.caller";
    private static final String ACTION = "audit.action";
    private static final String TYPE = "audit.type";
    private static final String JOB = "audit.job";

    private Audit() {
    }

    /**
     * @param type the type acted on, or a bulk action's filter of types (null: every type)
     * @param job the job's id, or null when the call is not about one job
     * @param line the sentence, already made safe to print ({@code Texts.visible})
     */
    static void log(String caller, String action, String type, String job, String line) {
        MDC.put(CALLER, caller);
        MDC.put(ACTION, action);
        if (type != null) {
            MDC.put(TYPE, type);
        }
        if (job != null) {
            MDC.put(JOB, job);
        }
        try {
            LOG.info(line);
        } finally {
            MDC.remove(CALLER);
            MDC.remove(ACTION);
            MDC.remove(TYPE);
            MDC.remove(JOB);
        }
    }
}
