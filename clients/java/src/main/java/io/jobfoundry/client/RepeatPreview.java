package io.jobfoundry.client;

import java.time.Instant;
import java.util.List;

/**
 * What the service makes of a repeat expression ({@link JobfoundryClient#previewRepeat}).
 *
 * @param normalized the expression in the canonical form a job stores it in (upper case, single spaces)
 * @param next the next run times, each counted as if the run before had been scheduled, started and finished at
 *     its time; shorter than asked when the schedule runs past the year 9999
 */
public record RepeatPreview(String normalized, List<Instant> next) {
}
