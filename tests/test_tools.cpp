// The command-line tool's pure functions, without FFmpeg or a GPU: a batch's
// shares of its list (tools/shard.c) and the spread of files over GPUs
// (tools/devices.c).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <random>
#include <string>
#include <vector>

#include <glib.h>

extern "C" {
#include "devices.h"
#include "shard.h"
}

namespace {

// Parses a spec with the given environment; on failure returns the message.
struct Parsed {
    bool ok;
    cli_shard shard;
    std::string msg;
};

Parsed parse(const char *spec, std::vector<std::string> env = {})
{
    std::vector<char *> envp;
    for (auto &e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    Parsed p{ false, { 99, 99 }, "" };
    char *msg = nullptr;
    p.ok = cli_shard_parse(spec, envp.data(), &p.shard, &msg);
    if (msg)
        p.msg = msg;
    g_free(msg);
    return p;
}

// Shard of every name, for `count` shards.
std::vector<unsigned> shards_of(const std::vector<std::string> &names, unsigned count)
{
    std::vector<const char *> ptrs;
    for (auto &n : names)
        ptrs.push_back(n.c_str());
    std::vector<unsigned> of(names.size(), count);
    for (unsigned s = 0; s < count; s++) {
        std::unique_ptr<bool[]> mine(new bool[names.size() + 1]);
        cli_shard_select(ptrs.data(), (int)names.size(), cli_shard{ s, count }, mine.get());
        for (size_t i = 0; i < names.size(); i++)
            if (mine[i]) {
                EXPECT_EQ(of[i], count) << names[i] << " is in two shards";
                of[i] = s;
            }
    }
    return of;
}

} // namespace

TEST(Shard, ParsesIndexOverCount)
{
    Parsed p = parse("3/4");
    ASSERT_TRUE(p.ok) << p.msg;
    EXPECT_EQ(p.shard.index, 3u);
    EXPECT_EQ(p.shard.count, 4u);
    p = parse("0/1");
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(p.shard.index, 0u);
    EXPECT_EQ(p.shard.count, 1u);
}

TEST(Shard, RefusesWhatIsNotAShardAndSaysWhy)
{
    Parsed p = parse("3/3");
    EXPECT_FALSE(p.ok);
    EXPECT_EQ(p.msg, "--shard 3/3: INDEX must be 0 to 2 (shards count from 0)");
    EXPECT_EQ(p.shard.index, 99u); // untouched on failure
    p = parse("0/0");
    EXPECT_FALSE(p.ok);
    EXPECT_EQ(p.msg, "--shard 0/0: COUNT must be 1 to 1000000");
    for (const char *bad : { "", "1", "1/", "/3", "-1/3", "+1/3", " 1/3", "1/3 ", "1/3/2",
                             "0x1/3", "1.0/3", "a/b", "1/-3", "99999999999999999999/3" }) {
        p = parse(bad);
        EXPECT_FALSE(p.ok) << bad;
        EXPECT_NE(p.msg.find("expected INDEX/COUNT (e.g. 0/4"), std::string::npos) << bad << ": "
                                                                                   << p.msg;
    }
}

TEST(Shard, AutoWithoutSlurmSaysWhatIsMissing)
{
    Parsed p = parse("auto", { "HOME=/root", "JOB_COMPLETION_INDEX=2" });
    EXPECT_FALSE(p.ok);
    EXPECT_NE(p.msg.find("SLURM_ARRAY_TASK_ID is not set"), std::string::npos) << p.msg;
    EXPECT_NE(p.msg.find("--shard $JOB_COMPLETION_INDEX/COUNT"), std::string::npos) << p.msg;
    p = parse("auto", { "SLURM_ARRAY_TASK_ID=1" });
    EXPECT_FALSE(p.ok);
    EXPECT_NE(p.msg.find("SLURM_ARRAY_TASK_MIN is not"), std::string::npos) << p.msg;
    p = parse("auto", { "SLURM_ARRAY_TASK_ID=x1", "SLURM_ARRAY_TASK_MIN=0",
                        "SLURM_ARRAY_TASK_COUNT=3" });
    EXPECT_FALSE(p.ok);
    EXPECT_EQ(p.msg, "--shard auto: SLURM_ARRAY_TASK_ID='x1' is not a number");
}

TEST(Shard, AutoFromSlurmArrays)
{
    struct Case {
        std::vector<std::string> env;
        unsigned index, count;
    } cases[] = {
        // sbatch --array=0-2, task 2 (what Slurm 22.05 sets, as seen on a real array)
        { { "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX=2",
            "SLURM_ARRAY_TASK_STEP=1", "SLURM_ARRAY_TASK_COUNT=3" }, 2, 3 },
        // --array=4-6: IDs need not start at 0
        { { "SLURM_ARRAY_TASK_ID=5", "SLURM_ARRAY_TASK_MIN=4", "SLURM_ARRAY_TASK_MAX=6",
            "SLURM_ARRAY_TASK_COUNT=3" }, 1, 3 },
        // --array=0-10:2: six tasks 0, 2, ..., 10
        { { "SLURM_ARRAY_TASK_ID=4", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX=10",
            "SLURM_ARRAY_TASK_STEP=2", "SLURM_ARRAY_TASK_COUNT=6" }, 2, 6 },
        // no COUNT (older Slurm): from MIN and MAX
        { { "SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX=3" }, 3, 4 },
        // no MAX: COUNT alone
        { { "SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_COUNT=2" }, 1, 2 },
    };
    for (auto &c : cases) {
        Parsed p = parse("auto", c.env);
        ASSERT_TRUE(p.ok) << c.env[0] << ": " << p.msg;
        EXPECT_EQ(p.shard.index, c.index) << c.env[0];
        EXPECT_EQ(p.shard.count, c.count) << c.env[0];
    }
}

TEST(Shard, AutoRefusesIrregularArrays)
{
    // --array=1,5,7: three tasks whose IDs are no range
    Parsed p = parse("auto", { "SLURM_ARRAY_TASK_ID=5", "SLURM_ARRAY_TASK_MIN=1",
                               "SLURM_ARRAY_TASK_MAX=7", "SLURM_ARRAY_TASK_COUNT=3" });
    EXPECT_FALSE(p.ok);
    EXPECT_NE(p.msg.find("not the regular range 1-7:1"), std::string::npos) << p.msg;
    EXPECT_NE(p.msg.find("submit --array=0-2"), std::string::npos) << p.msg;
    // an ID outside the array, an ID off the step, an ID past COUNT
    EXPECT_FALSE(parse("auto", { "SLURM_ARRAY_TASK_ID=9", "SLURM_ARRAY_TASK_MIN=0",
                                 "SLURM_ARRAY_TASK_MAX=2", "SLURM_ARRAY_TASK_COUNT=3" }).ok);
    EXPECT_FALSE(parse("auto", { "SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_MIN=0",
                                 "SLURM_ARRAY_TASK_MAX=10", "SLURM_ARRAY_TASK_STEP=2",
                                 "SLURM_ARRAY_TASK_COUNT=6" }).ok);
    EXPECT_FALSE(parse("auto", { "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_MIN=0",
                                 "SLURM_ARRAY_TASK_COUNT=2" }).ok);
}

TEST(Shard, SharesOfSevenFiles)
{
    // The Slurm test's list: sorted, the k-th name goes to shard k mod 3.
    std::vector<std::string> names = { "in/c.mp4", "in/a.mp4", "in/g.mp4", "in/b.mp4",
                                       "in/e.mp4", "in/d.mp4", "in/f.mp4" };
    std::vector<unsigned> of = shards_of(names, 3);
    std::map<std::string, unsigned> want = { { "in/a.mp4", 0 }, { "in/b.mp4", 1 },
                                             { "in/c.mp4", 2 }, { "in/d.mp4", 0 },
                                             { "in/e.mp4", 1 }, { "in/f.mp4", 2 },
                                             { "in/g.mp4", 0 } };
    for (size_t i = 0; i < names.size(); i++)
        EXPECT_EQ(of[i], want[names[i]]) << names[i];
}

TEST(Shard, OrderIsBytesNotLocale)
{
    // 'B' (0x42) < 'a' (0x61) < 'z' < "\xc3\xa9" (UTF-8 e-acute), whatever LC_COLLATE says.
    std::vector<std::string> names = { "\xc3\xa9.mkv", "a.mkv", "B.mkv", "z.mkv" };
    std::vector<unsigned> of = shards_of(names, 4);
    EXPECT_EQ(of, (std::vector<unsigned>{ 3, 1, 0, 2 }));
}

TEST(Shard, EveryNameOnceInAnyOrderOnRandomLists)
{
    std::mt19937 rng(18);
    for (int round = 0; round < 300; round++) {
        int n = (int)(rng() % 60);
        unsigned count = 1 + rng() % 12;
        std::vector<std::string> names;
        for (int i = 0; i < n; i++)
            names.push_back("f" + std::to_string(rng() % 40) + ".mp4"); // duplicates too
        std::vector<unsigned> of = shards_of(names, count);
        std::vector<int> sizes(count, 0);
        for (size_t i = 0; i < names.size(); i++) {
            ASSERT_LT(of[i], count) << names[i] << " is in no shard";
            sizes[of[i]]++;
        }
        auto [lo, hi] = std::minmax_element(sizes.begin(), sizes.end());
        EXPECT_LE(*hi - *lo, 1) << "shares differ by more than one file";
        // The same names in another order: every distinct name keeps its shard
        // (occurrences of a repeated name may swap shards among themselves).
        std::vector<size_t> perm(names.size());
        for (size_t i = 0; i < perm.size(); i++)
            perm[i] = i;
        std::shuffle(perm.begin(), perm.end(), rng);
        std::vector<std::string> shuffled;
        for (size_t i : perm)
            shuffled.push_back(names[i]);
        std::vector<unsigned> of2 = shards_of(shuffled, count);
        std::map<std::string, std::multiset<unsigned>> a, b;
        for (size_t i = 0; i < names.size(); i++) {
            a[names[i]].insert(of[i]);
            b[shuffled[i]].insert(of2[i]);
        }
        EXPECT_EQ(a, b);
    }
}

// ---- devices -------------------------------------------------------------

namespace {

struct Devs {
    int n;
    std::vector<int> ords;
    std::string msg;
};

Devs devices(const char *spec, int count, int max = 64)
{
    std::vector<int> ords(max > 0 ? max : 1, -1);
    char *msg = nullptr;
    Devs d{ cli_devices_parse(spec, count, "no CUDA driver (libcuda) usable", nullptr, ords.data(),
                              max, &msg), {}, msg ? msg : "" };
    g_free(msg);
    for (int i = 0; i < d.n; i++)
        d.ords.push_back(ords[i]);
    return d;
}

} // namespace

TEST(Devices, AllListCpu)
{
    EXPECT_EQ(devices("all", 4).ords, (std::vector<int>{ 0, 1, 2, 3 }));
    Devs none = devices("all", 0); // no GPU: the CPU, not an error
    EXPECT_EQ(none.n, 0);
    EXPECT_EQ(none.msg, "");
    EXPECT_EQ(devices("all", 4, 2).ords, (std::vector<int>{ 0, 1 }));
    EXPECT_EQ(devices("cpu", 2).n, 0);
    EXPECT_EQ(devices("gpu", 2).ords, (std::vector<int>{ 0 }));
    EXPECT_EQ(devices("gpu", 0).msg, "no GPU (no CUDA driver (libcuda) usable)");
    EXPECT_EQ(devices("1,0", 2).ords, (std::vector<int>{ 1, 0 }));
    EXPECT_EQ(devices(" 2 , 0", 3).ords, (std::vector<int>{ 2, 0 }));
}

TEST(Devices, BadListsSayWhy)
{
    Devs d = devices("0,0", 2);
    EXPECT_EQ(d.n, -1);
    EXPECT_EQ(d.msg, "GPU 0 is listed twice in '0,0'");
    EXPECT_EQ(devices("2", 2).msg, "GPU 2 does not exist (this machine has 2: 0..1)");
    EXPECT_EQ(devices("0,1", 0).msg, "GPU 0: no GPU (no CUDA driver (libcuda) usable)");
    EXPECT_EQ(devices("gpu1", 2).msg, "'gpu1' is not a GPU ordinal (0, 1, ...)");
    EXPECT_EQ(devices("0,,1", 2).msg, "'' is not a GPU ordinal (0, 1, ...)");
    EXPECT_EQ(devices("-1", 2).n, -1);
    EXPECT_EQ(devices("0,1,2", 3, 2).msg, "'0,1,2' lists more than 2 GPUs");
}

TEST(Devices, PickTakesTheLeastLoadedLowestFirst)
{
    int a[] = { 0, 0, 0 };
    EXPECT_EQ(cli_devices_pick(a, 3), 0);
    int b[] = { 1, 0, 0 };
    EXPECT_EQ(cli_devices_pick(b, 3), 1);
    int c[] = { 2, 2, 1 };
    EXPECT_EQ(cli_devices_pick(c, 3), 2);
    int d[] = { 5 };
    EXPECT_EQ(cli_devices_pick(d, 1), 0);
}

TEST(Devices, JobsPerDeviceHoldInASimulatedBatch)
{
    // N GPUs, --jobs J: the batch runs N*J files at a time and each new file
    // takes the least-loaded GPU, so no GPU ever runs more than J and each
    // runs J while enough files are left.
    std::mt19937 rng(19);
    for (int n_gpus = 1; n_gpus <= 8; n_gpus++)
        for (int jobs = 1; jobs <= 3; jobs++) {
            int slots = n_gpus * jobs, files = 50;
            std::vector<int> load(n_gpus, 0), ran(n_gpus, 0);
            std::vector<std::pair<int, int>> running; // (remaining time, gpu)
            for (int started = 0; started < files || !running.empty();) {
                while (started < files && (int)running.size() < slots) {
                    int g = cli_devices_pick(load.data(), n_gpus);
                    load[g]++;
                    ran[g]++;
                    started++;
                    ASSERT_LE(load[g], jobs) << n_gpus << " GPUs, --jobs " << jobs;
                    running.push_back({ 1 + (int)(rng() % 7), g });
                }
                if (started < files) { // all slots busy: every GPU runs exactly J
                    for (int g = 0; g < n_gpus; g++)
                        ASSERT_EQ(load[g], jobs);
                }
                // the shortest one ends
                auto it = std::min_element(running.begin(), running.end());
                int dt = it->first;
                load[it->second]--;
                running.erase(it);
                for (auto &r : running)
                    r.first -= dt;
            }
            int total = 0;
            for (int g = 0; g < n_gpus; g++) {
                total += ran[g];
                EXPECT_GT(ran[g], 0) << "GPU " << g << " of " << n_gpus << " ran nothing";
            }
            EXPECT_EQ(total, files); // each file on exactly one GPU
        }
}
