/* cudafilters tool: the commands' option parsing and set-up. */
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

#include <stdbool.h>

/* Exit statuses besides 0 (success) and the count of failed files. A usage
 * error means nothing ran. */
#define CLI_EXIT_USAGE 2
#define CLI_EXIT_INTERRUPTED 130
#define CLI_EXIT_MAX_FAILED 125

/* Remembers this program's path, for batch's child processes. */
void cli_set_self(const char *argv0);

/* Each takes the arguments after the command name (argv[0] = the command)
 * and returns the process exit status. */
int cli_cmd_transcode(int argc, char **argv);
int cli_cmd_batch(int argc, char **argv);
/* `report merge REPORT|DIR...`: one summary of batch --report files. */
int cli_cmd_report(int argc, char **argv);
/* `filters` and `devices`: only --json; `print` does the work. */
int cli_cmd_info(int argc, char **argv, int (*print)(bool json), const char *summary);

#endif
