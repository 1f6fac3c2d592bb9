// The plugin's last-released-first buffer pool (plugins/gstcflifopool.h)
// on system memory: the order buffers come back in, that it stays a
// GstBufferPool (outstanding buffers, deactivation, reactivation), and that
// buffers whose memory changed are freed, not handed out again.
#include <gtest/gtest.h>

#include <gst/gst.h>
#include <gst/video/video.h>

#include <vector>

extern "C" {
#include "../plugins/gstcflifopool.h"
}

namespace {

class LifoPool : public ::testing::Test {
protected:
    void SetUp() override
    {
        gst_init(nullptr, nullptr);
        pool = gst_cf_lifo_video_pool_new();
        ASSERT_NE(pool, nullptr);
        GstCaps *caps = gst_caps_from_string("video/x-raw,format=RGBA,width=64,height=16");
        GstVideoInfo info;
        ASSERT_TRUE(gst_video_info_from_caps(&info, caps));
        GstStructure *config = gst_buffer_pool_get_config(pool);
        gst_buffer_pool_config_set_params(config, caps, (guint)GST_VIDEO_INFO_SIZE(&info), 4, 0);
        gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
        ASSERT_TRUE(gst_buffer_pool_set_config(pool, config));
        gst_caps_unref(caps);
        ASSERT_TRUE(gst_buffer_pool_set_active(pool, TRUE));
    }
    void TearDown() override
    {
        if (pool) {
            EXPECT_TRUE(gst_buffer_pool_set_active(pool, FALSE));
            gst_object_unref(pool);
        }
    }
    GstBuffer *acquire()
    {
        GstBuffer *b = nullptr;
        EXPECT_EQ(gst_buffer_pool_acquire_buffer(pool, &b, nullptr), GST_FLOW_OK);
        return b;
    }
    GstBufferPool *pool = nullptr;
};

TEST_F(LifoPool, HandsOutTheBufferReleasedLast)
{
    GstBuffer *a = acquire(), *b = acquire(), *c = acquire();
    ASSERT_TRUE(a && b && c);
    EXPECT_NE(a, b);
    // Released a, c, b: they come back b, c, a.
    gst_buffer_unref(a);
    gst_buffer_unref(c);
    gst_buffer_unref(b);
    GstBuffer *x = acquire(), *y = acquire(), *z = acquire();
    EXPECT_EQ(x, b);
    EXPECT_EQ(y, c);
    EXPECT_EQ(z, a);
    gst_buffer_unref(x);
    gst_buffer_unref(y);
    gst_buffer_unref(z);
}

TEST_F(LifoPool, ASteadyStreamCyclesOneBufferNotAll)
{
    // One frame in flight at a time: GstBufferPool's queue would cycle
    // through all 4 buffers made at start; the stack reuses one.
    GstBuffer *first = acquire();
    gst_buffer_unref(first);
    for (int i = 0; i < 20; i++) {
        GstBuffer *b = acquire();
        EXPECT_EQ(b, first) << "frame " << i;
        gst_buffer_unref(b);
    }
}

TEST_F(LifoPool, GrowsPastItsMinimumAndKeepsEveryBuffer)
{
    std::vector<GstBuffer *> held;
    for (int i = 0; i < 9; i++) held.push_back(acquire()); // 4 made at start, 5 more
    for (GstBuffer *b : held) ASSERT_NE(b, nullptr);
    for (GstBuffer *b : held) gst_buffer_unref(b);
    // All 9 kept: the next 9 are the same buffers, newest released first.
    for (int i = 8; i >= 0; i--) {
        GstBuffer *b = acquire();
        EXPECT_EQ(b, held[i]);
        held[i] = b;
    }
    for (GstBuffer *b : held) gst_buffer_unref(b);
}

TEST_F(LifoPool, ABufferWhoseMemoryWasReplacedIsNotHandedOutAgain)
{
    GstBuffer *a = acquire();
    ASSERT_NE(a, nullptr);
    gst_buffer_replace_all_memory(a, gst_allocator_alloc(nullptr, 64 * 16 * 4, nullptr));
    gst_buffer_unref(a);
    GstBuffer *b = acquire();
    EXPECT_FALSE(GST_BUFFER_FLAG_IS_SET(b, GST_BUFFER_FLAG_TAG_MEMORY));
    gst_buffer_unref(b);
}

TEST_F(LifoPool, DeactivatesWithBuffersOutAndStartsAgain)
{
    GstBuffer *a = acquire(), *b = acquire();
    gst_buffer_unref(b);
    // Inactive while a is out: no more buffers; a goes back to the pool.
    EXPECT_TRUE(gst_buffer_pool_set_active(pool, FALSE));
    GstBuffer *none = nullptr;
    EXPECT_EQ(gst_buffer_pool_acquire_buffer(pool, &none, nullptr), GST_FLOW_FLUSHING);
    gst_buffer_unref(a);
    EXPECT_TRUE(gst_buffer_pool_set_active(pool, TRUE));
    GstBuffer *c = acquire();
    EXPECT_NE(c, nullptr);
    gst_buffer_unref(c);
}

} // namespace

namespace {

// With a maximum, an acquire at the maximum waits for a release (which
// goes to the stack, not to GstBufferPool's own queue) and is woken by it,
// or by deactivation; with DONTWAIT it returns EOS at once.
class BoundedLifoPool : public ::testing::Test {
protected:
    void SetUp() override
    {
        gst_init(nullptr, nullptr);
        pool = gst_cf_lifo_video_pool_new();
        GstCaps *caps = gst_caps_from_string("video/x-raw,format=GRAY8,width=32,height=8");
        GstStructure *config = gst_buffer_pool_get_config(pool);
        gst_buffer_pool_config_set_params(config, caps, 32 * 8, 2, 2);
        ASSERT_TRUE(gst_buffer_pool_set_config(pool, config));
        gst_caps_unref(caps);
        ASSERT_TRUE(gst_buffer_pool_set_active(pool, TRUE));
    }
    void TearDown() override { gst_object_unref(pool); }
    GstBufferPool *pool = nullptr;
};

struct Waiter {
    GstBufferPool *pool;
    GstBuffer *buffer = nullptr;
    GstFlowReturn ret = GST_FLOW_ERROR;
    gint done = 0;
};

gpointer acquire_in_thread(gpointer data)
{
    Waiter *w = static_cast<Waiter *>(data);
    w->ret = gst_buffer_pool_acquire_buffer(w->pool, &w->buffer, nullptr);
    g_atomic_int_set(&w->done, 1);
    return nullptr;
}

TEST_F(BoundedLifoPool, AReleaseWakesAnAcquireWaitingAtTheMaximum)
{
    GstBuffer *a = nullptr, *b = nullptr, *c = nullptr;
    ASSERT_EQ(gst_buffer_pool_acquire_buffer(pool, &a, nullptr), GST_FLOW_OK);
    ASSERT_EQ(gst_buffer_pool_acquire_buffer(pool, &b, nullptr), GST_FLOW_OK);
    GstBufferPoolAcquireParams dontwait = {};
    dontwait.flags = GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;
    EXPECT_EQ(gst_buffer_pool_acquire_buffer(pool, &c, &dontwait), GST_FLOW_EOS);
    Waiter w{pool};
    GThread *t = g_thread_new("acquire", acquire_in_thread, &w);
    g_usleep(50000);
    EXPECT_EQ(g_atomic_int_get(&w.done), 0) << "an acquire at the maximum returned at once";
    gst_buffer_unref(b);
    g_thread_join(t);
    EXPECT_EQ(w.ret, GST_FLOW_OK);
    EXPECT_EQ(w.buffer, b);
    gst_buffer_unref(w.buffer);
    gst_buffer_unref(a);
    EXPECT_TRUE(gst_buffer_pool_set_active(pool, FALSE));
}

TEST_F(BoundedLifoPool, DeactivationWakesAnAcquireWaitingAtTheMaximum)
{
    GstBuffer *a = nullptr, *b = nullptr;
    ASSERT_EQ(gst_buffer_pool_acquire_buffer(pool, &a, nullptr), GST_FLOW_OK);
    ASSERT_EQ(gst_buffer_pool_acquire_buffer(pool, &b, nullptr), GST_FLOW_OK);
    Waiter w{pool};
    GThread *t = g_thread_new("acquire", acquire_in_thread, &w);
    g_usleep(50000);
    EXPECT_TRUE(gst_buffer_pool_set_active(pool, FALSE));
    g_thread_join(t);
    EXPECT_EQ(w.ret, GST_FLOW_FLUSHING);
    gst_buffer_unref(a);
    gst_buffer_unref(b);
}

} // namespace
