/* cudafilters tool: the `filters` and `devices` commands. */
#ifndef CLI_INFO_H
#define CLI_INFO_H

#include <stdbool.h>

/* Lists every registered filter with its parameters (type, range, default,
 * unit, choices, summary), from the same descriptors the GStreamer elements
 * use. Returns the exit status. */
int cli_print_filters(bool json);

/* Lists the CUDA devices (name, memory, compute capability, whether FFmpeg
 * can decode on it), or says plainly that there is none and why. Returns the
 * exit status (0 either way: no GPU is a normal state). */
int cli_print_devices(bool json);

#endif
