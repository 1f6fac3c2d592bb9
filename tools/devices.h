/* cudafilters tool: which GPUs a command uses (--device, --devices) and
 * which of them each file of a batch runs on. Pure functions: the caller
 * says how many GPUs there are (cli_gpu_count), so they test without one. */
#ifndef CLI_DEVICES_H
#define CLI_DEVICES_H

/* The GPUs named by `spec` into ords[] (at most `max`), in the order given:
 *   "all"    every one of the `count` GPUs (none: the CPU);
 *   "cpu"    none (the CPU);
 *   "gpu"    GPU 0, an error where there is none;
 *   "0,2"    those ordinals, each from 0 to count-1, none twice.
 * Returns how many (0: run on the CPU), or -1 with *msg (g_free it) naming
 * the bad entry; `no_gpu_reason` (static text) says why `count` is 0 in
 * that message, and `takes` (static text, or NULL) what the option takes,
 * added after an entry that is neither one of these words nor a number. */
int cli_devices_parse(const char *spec, int count, const char *no_gpu_reason, const char *takes,
                      int *ords, int max, char **msg);

/* The device a new file goes to: the index (into the batch's device list,
 * 0..n-1) with the fewest running files in load[], the lowest index among
 * equals. With --jobs J per device, the batch runs n * J files at a time, so
 * every device then runs J of them. n must be at least 1. */
int cli_devices_pick(const int *load, int n);

#endif
