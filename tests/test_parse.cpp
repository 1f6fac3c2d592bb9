// Filter strings and parameter strings: numbers read the same in every
// locale, nonsense refused with the bad token named, messages kept whole.
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "internal.h"
#include "test_utils.h"

namespace {

double param(const cf_chain *c, int i, const char *name)
{
    double v = NAN;
    EXPECT_EQ(cf_filter_get_double(cf_chain_get(c, i), name, &v), CF_OK) << cf_last_error();
    return v;
}

// The message cf_chain_parse leaves for `text`, which must be refused.
std::string refusal(const std::string &text)
{
    cf_chain *c = cf_chain_parse(text.c_str());
    EXPECT_EQ(c, nullptr) << text << " was accepted";
    cf_chain_free(&c);
    return cf_last_error();
}

} // namespace

TEST(Numbers, PlainDecimalsAreRead)
{
    struct { const char *text; double value; } ok[] = {
        { "2", 2 }, { "2.5", 2.5 }, { "-0.5", -0.5 }, { ".5", 0.5 }, { "5.", 5 },
        { "1e2", 100 }, { "1E-3", 0.001 }, { "2.5e+1", 25 }, { "007", 7 },
    };
    for (const auto &c : ok) {
        double v = NAN;
        EXPECT_EQ(cf_parse_number(c.text, &v), CF_NUMBER_OK) << c.text;
        EXPECT_EQ(v, c.value) << c.text;
    }
}

TEST(Numbers, RefusesWhatIsNotAPlainDecimal)
{
    for (const char *text : { "", "+2", "0x10", "0X1A", "0x1p3", "0x.8p1", "inf", "-inf",
                              "infinity", "nan", "NAN(1)", "1e", "1e+", ".", "-", "-.", "e5",
                              "2.5.1", "1,5", " 2", "2 ", "2a", "--2", "1_000", "１" }) {
        double v = 42;
        EXPECT_EQ(cf_parse_number(text, &v), CF_NUMBER_MALFORMED) << "'" << text << "'";
        EXPECT_EQ(v, 42) << "'" << text << "' changed the value";
    }
}

TEST(Numbers, OverflowIsOutOfRangeAndMinusZeroIsZero)
{
    double v = 0;
    EXPECT_EQ(cf_parse_number("1e309", &v), CF_NUMBER_OUT_OF_RANGE);
    EXPECT_EQ(cf_parse_number("-1e309", &v), CF_NUMBER_OUT_OF_RANGE);
    ASSERT_EQ(cf_parse_number("-0", &v), CF_NUMBER_OK);
    EXPECT_EQ(v, 0);
    EXPECT_FALSE(std::signbit(v));
    ASSERT_EQ(cf_parse_number("-0.0e5", &v), CF_NUMBER_OK);
    EXPECT_FALSE(std::signbit(v));
    ASSERT_EQ(cf_parse_number("1e-400", &v), CF_NUMBER_OK); // underflows to 0: a number
    EXPECT_EQ(v, 0);
}

TEST(FilterString, OutOfRangeIsSaidSo)
{
    std::string m = refusal("blur=sigma=1e309");
    EXPECT_NE(m.find("sigma=1e309 is out of range [0.01, 128]"), std::string::npos) << m;
    EXPECT_NE(m.find("at character 12"), std::string::npos) << m;
    EXPECT_EQ(m.find("not a number"), std::string::npos) << m;
}

TEST(FilterString, ValuesJustPastABoundPrintAsGiven)
{
    // "%g" would print both as the bound they miss ("sigma=128 is out of
    // range [0.01, 128]").
    std::string m = refusal("blur=sigma=128.0000001");
    EXPECT_NE(m.find("sigma=128.0000001 is out of range [0.01, 128]"), std::string::npos) << m;
    m = refusal("blur=sigma=0.0099999999");
    EXPECT_NE(m.find("sigma=0.0099999999 is out of range [0.01, 128]"), std::string::npos) << m;
    m = refusal("blur=kernel-size=3.0000001");
    EXPECT_NE(m.find("kernel-size=3.0000001 must be a whole number"), std::string::npos) << m;
}

TEST(Numbers, FormattedNumbersReadBackExactly)
{
    char buf[CF_NUMBER_CHARS];
    EXPECT_STREQ(cf_format_number(buf, 128.0000001), "128.0000001");
    EXPECT_STREQ(cf_format_number(buf, 0.01), "0.01");
    EXPECT_STREQ(cf_format_number(buf, 1025), "1025");
    for (double v : { 0.1 + 0.2, 1e-320, -1.2345678901234567e-308, 1e300 }) {
        double back = 0;
        ASSERT_EQ(cf_parse_number(cf_format_number(buf, v), &back), CF_NUMBER_OK) << buf;
        EXPECT_EQ(back, v) << buf;
    }
}

TEST(FilterString, EmptyValueNamesItsOption)
{
    std::string m = refusal("blur=sigma=");
    EXPECT_NE(m.find("empty option value for 'sigma' at character 12"), std::string::npos) << m;
    m = refusal("blur=2:");
    EXPECT_NE(m.find("empty option value at character"), std::string::npos) << m;
}

TEST(FilterString, RefusesHexPlusAndOtherNonDecimals)
{
    for (const char *value : { "0x10", "0x1p1", "+2", "inf", "nan", "2.5.1" }) {
        std::string m = refusal(std::string("blur=sigma=") + value);
        EXPECT_NE(m.find(std::string("sigma='") + value + "' is not a number"), std::string::npos)
            << m;
        EXPECT_NE(m.find("at character 12"), std::string::npos) << m;
    }
}

TEST(FilterString, MinusZeroIsStoredAsZero)
{
    cf_chain *c = cf_chain_parse("blur=sigma-y=-0:border-value=-0");
    ASSERT_NE(c, nullptr) << cf_last_error();
    EXPECT_FALSE(std::signbit(param(c, 0, "sigma-y")));
    EXPECT_FALSE(std::signbit(param(c, 0, "border-value")));
    cf_chain_free(&c);
    // The C API the same way.
    cf_filter *f = cf_filter_new("blur");
    CF_ASSERT_OK(cf_filter_set_double(f, "sigma-y", -0.0));
    double v = 1;
    CF_ASSERT_OK(cf_filter_get_double(f, "sigma-y", &v));
    EXPECT_FALSE(std::signbit(v));
    cf_filter_free(&f);
}

TEST(FilterString, RepeatedOptionIsRefused)
{
    std::string m = refusal("blur=sigma=2:sigma=3");
    EXPECT_NE(m.find("blur: option 'sigma' given twice, again at character 14"),
              std::string::npos)
        << m;
    // A positional value fills the same parameter as its name would.
    m = refusal("blur=2:sigma=3");
    EXPECT_NE(m.find("option 'sigma' given twice, again at character 8"), std::string::npos) << m;
    m = refusal("blur=sigma=2:border=reflect:kernel-size=5:border=replicate");
    EXPECT_NE(m.find("option 'border' given twice, again at character 43"), std::string::npos)
        << m;
    // The same parameter in two filters of a chain is fine.
    cf_chain *c = cf_chain_parse("blur=sigma=2,blur=sigma=3");
    ASSERT_NE(c, nullptr) << cf_last_error();
    EXPECT_EQ(param(c, 0, "sigma"), 2);
    EXPECT_EQ(param(c, 1, "sigma"), 3);
    cf_chain_free(&c);
}

TEST(FilterString, LongMessagesAreKeptWhole)
{
    // A bad value of 5000 characters: the message still ends with where it is.
    std::string value(5000, 'x');
    std::string m = refusal("gray,blur=sigma=" + value);
    EXPECT_NE(m.find("'" + value + "'"), std::string::npos);
    EXPECT_TRUE(g_str_has_suffix(m.c_str(), ("(value '" + value + "' at character 17)").c_str()));
    // Multi-byte characters are never split: the message holds all of them.
    std::string name;
    for (int i = 0; i < 1500; i++)
        name += "\xc3\xa9"; // U+00E9
    m = refusal("gray," + name);
    EXPECT_NE(m.find("unknown filter '" + name + "' at character 6"), std::string::npos);
    EXPECT_TRUE(g_utf8_validate(m.c_str(), -1, nullptr));
}

TEST(FilterString, MessagesArePerThread)
{
    std::string other;
    EXPECT_EQ(cf_chain_parse("blurr"), nullptr);
    std::thread t([&other] {
        EXPECT_EQ(cf_chain_parse(("gray," + std::string(3000, 'q')).c_str()), nullptr);
        other = cf_last_error();
    });
    t.join();
    EXPECT_STREQ(cf_last_error(), "unknown filter 'blurr' at character 1");
    EXPECT_NE(other.find("at character 6"), std::string::npos);
}

// glibc reads compiled locales from $LOCPATH; localedef makes one from the
// locale sources (Debian's `locales` package), without root.
static bool make_german_locale(const std::string &dir)
{
    std::string cmd = "localedef -i de_DE -f UTF-8 '" + dir + "/de_DE.UTF-8' >/dev/null 2>&1";
    return std::system(cmd.c_str()) == 0;
}

TEST(FilterString, NumbersReadTheSameInAGermanLocale)
{
    char tmpl[] = "/tmp/cf-locale-XXXXXX";
    ASSERT_NE(g_mkdtemp(tmpl), nullptr);
    std::string dir = tmpl;
    if (!make_german_locale(dir)) {
        g_rmdir(dir.c_str());
        GTEST_SKIP() << "localedef cannot make de_DE.UTF-8 here (apt-get install locales)";
    }
    setenv("LOCPATH", dir.c_str(), 1);
    ASSERT_NE(std::setlocale(LC_ALL, "de_DE.UTF-8"), nullptr);
    // The locale is in effect: the C library itself now reads "2.5" as 2.
    EXPECT_STREQ(std::localeconv()->decimal_point, ",");
    EXPECT_EQ(std::strtod("2.5", nullptr), 2.0);
    cf_chain *c = cf_chain_parse("blur=sigma=2.5:sigma-y=1e-1");
    std::string error = c ? "" : cf_last_error();
    // And messages print numbers as they are read: "[0.01, 128]", not "[0,01, 128]".
    std::string range = refusal("blur=sigma=200");
    std::setlocale(LC_ALL, "C");
    EXPECT_NE(range.find("out of range [0.01, 128]"), std::string::npos) << range;
    unsetenv("LOCPATH");
    ASSERT_NE(c, nullptr) << error;
    EXPECT_EQ(param(c, 0, "sigma"), 2.5);
    EXPECT_EQ(param(c, 0, "sigma-y"), 0.1);
    cf_chain_free(&c);
    EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
}
