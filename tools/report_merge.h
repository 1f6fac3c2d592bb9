/* cudafilters tool: `cudafilters report merge`, one summary of the report
 * files (report.h) that the shards of a batch, and their reruns, wrote. */
#ifndef CLI_REPORT_MERGE_H
#define CLI_REPORT_MERGE_H

#include <stdbool.h>

/* Reads the n report files in `paths` (a folder: its *.jsonl files, in
 * name order), in that order, and prints one summary on stdout: as text, or
 * as one JSON object with `json`.
 *
 * Each input counts once, by its latest line: a file transcoded, then
 * skipped by a rerun (its output existed) counts as transcoded once; failed,
 * then transcoded by a rerun, as transcoded. An input that a run's start line
 * lists but no line reports (its run was killed before it ended) counts as
 * not reported. frames/s is the frames transcoded over the seconds the
 * transcodes took (each file's own time, summed).
 *
 * A line that is not a report line is left out with a warning on stderr.
 * Returns the exit status: 0 every input done, 1 some input failed or not
 * reported, 2 a path cannot be read or holds no report line. */
int cli_report_merge(char **paths, int n, bool json);

#endif
