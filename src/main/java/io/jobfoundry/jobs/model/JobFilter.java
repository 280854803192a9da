package io.jobfoundry.jobs.model;

import io.jobfoundry.Texts;
import java.util.ArrayList;
import java.util.List;

/**
 * Which jobs a listing across types or a bulk action covers: the types a glob matches ({@code null}:
 * every type), and, when given, one state, one result (finished jobs only) and one group
 * ({@code ""} is the default group). The glob is checked here, so a bad one is refused before
 * anything is read or changed.
 */
public record JobFilter(String types, JobState state, JobResult result, String group) {

    public JobFilter {
        if (types != null) {
            try {
                TypeNames.checkPattern(types);
            } catch (InvalidJobRequestException e) {
                // checkPattern speaks of accept's "types" list; here the member is the one type glob.
                throw new InvalidJobRequestException("type",
                        "type is a type name or a glob of one with * and ?, e.g. \"email\" or \"Check*\"");
            }
        }
        if (group != null) {
            TypeNames.checkGroup(group); // one no job can have matches nothing: a mistake, answered as one
        }
    }

    /** Every job of every type. */
    public static final JobFilter ALL = new JobFilter(null, null, null, null);

    /** Whether jobs of {@code type} may match: types the glob leaves out are skipped unread. */
    public boolean coversType(String type) {
        return types == null || TypeNames.matches(types, type);
    }

    /** Whether a job of a covered type in this state, with this result and group, matches. */
    public boolean matches(JobState jobState, JobResult jobResult, String jobGroup) {
        return (state == null || state == jobState) && (result == null || result == jobResult)
                && (group == null || group.equals(jobGroup));
    }

    /**
     * What the filter covers, as logs show it: {@code type email* (state finished, result failed,
     * group "tenant-a")}. A group has no control characters (checked above), so this is one line;
     * its quotes are escaped, so the name cannot close its own.
     */
    public String describe() {
        List<String> also = new ArrayList<>(3);
        if (state != null) {
            also.add("state " + state.wireName());
        }
        if (result != null) {
            also.add("result " + result.wireName());
        }
        if (group != null) {
            also.add("group \"" + Texts.visible(group.replace("\\", "\\\\").replace("\"", "\\\"")) + "\"");
        }
        return "type " + (types == null ? "*" : types) + (also.isEmpty() ? "" : " (" + String.join(", ", also) + ")");
    }
}
