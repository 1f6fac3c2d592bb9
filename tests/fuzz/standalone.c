/* main() for the fuzz targets in builds without libFuzzer: runs the target
 * once on each file named, or on each file of each directory named (the
 * seed corpus and the regression inputs), so every build replays them. */
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
    gchar *data = NULL;
    gsize size = 0;
    GError *error = NULL;
    if (!g_file_get_contents(path, &data, &size, &error)) {
        fprintf(stderr, "%s\n", error->message);
        g_error_free(error);
        return 1;
    }
    LLVMFuzzerTestOneInput((const unsigned char *)data, size);
    g_free(data);
    return 0;
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    int runs = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        if (!g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
            bad += run_file(argv[i]);
            runs++;
            continue;
        }
        GDir *d = g_dir_open(argv[i], 0, NULL);
        const char *name;
        while (d && (name = g_dir_read_name(d))) {
            gchar *path = g_build_filename(argv[i], name, NULL);
            bad += run_file(path);
            runs++;
            g_free(path);
        }
        if (d)
            g_dir_close(d);
    }
    printf("%d inputs run, %d unreadable\n", runs, bad);
    return bad ? 1 : 0;
}
