// Makes the OpenCV 4.6 reference vectors of convert and scale in this
// folder; the outputs are committed, so the tests need no OpenCV. Build and
// run it on a machine with Debian's libopencv-dev:
//   g++ -O2 make_convert_scale_vectors.cpp -o /tmp/mkv $(pkg-config --cflags --libs opencv4)
//   /tmp/mkv tests/vectors
// Inputs are the committed photo crops baboon.ppm (231x173 RGB) and
// fruits-gray.pgm (177x131). Each MANIFEST-convert-scale line is
//   <expected> <input> <input format> <max difference> <filter string>
// Images are binary PGM/PPM; a YUV 4:2:0 picture is a PGM of width x
// (height * 3 / 2) in I420 or NV12 layout (OpenCV's).
#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <fstream>
#include <string>

static std::string dir;
static std::ofstream manifest;

static void save(const std::string &name, const cv::Mat &img, bool rgb)
{
    cv::Mat out; // a new buffer: converting into a copy of `img`'s header would change img
    if (rgb)
        cv::cvtColor(img, out, cv::COLOR_RGB2BGR); // imwrite takes BGR
    else
        out = img;
    cv::imwrite(dir + "/" + name, out);
}

static void line(const std::string &expected, const std::string &input, const char *format,
                 int tolerance, const std::string &chain)
{
    manifest << expected << ' ' << input << ' ' << format << ' ' << tolerance << ' ' << chain
             << '\n';
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    dir = argv[1];
    cv::setNumThreads(1);
    manifest.open(dir + "/MANIFEST-convert-scale");
    cv::Mat rgb, gray;
    cv::cvtColor(cv::imread(dir + "/baboon.ppm", cv::IMREAD_COLOR), rgb, cv::COLOR_BGR2RGB);
    gray = cv::imread(dir + "/fruits-gray.pgm", cv::IMREAD_GRAYSCALE);
    std::printf("OpenCV %s, baboon %dx%d, fruits %dx%d\n", CV_VERSION, rgb.cols, rgb.rows,
                gray.cols, gray.rows);

    // ---- convert: even-sized crop, OpenCV's BT.601 limited range with
    // nearest chroma (its only kind).
    cv::Mat even = rgb(cv::Rect(0, 0, 230, 172)).clone(), i420, nv12;
    save("cs-rgb230.ppm", even, true);
    cv::cvtColor(even, i420, cv::COLOR_RGB2YUV_I420);
    save("cs-rgb2i420.pgm", i420, false);
    const char *opts = "matrix=bt601:range=limited:chroma-filter=nearest";
    line("cs-rgb2i420.pgm", "cs-rgb230.ppm", "RGB", 1, std::string("convert=format=i420:") + opts);
    nv12 = i420.clone(); // Y, then U and V interleaved
    {
        int w = 230, h = 172, cw = w / 2, ch = h / 2;
        const uint8_t *u = i420.ptr(h), *v = u + cw * ch;
        uint8_t *uv = nv12.ptr(h);
        for (int k = 0; k < cw * ch; k++) uv[2 * k] = u[k], uv[2 * k + 1] = v[k];
    }
    save("cs-nv12.pgm", nv12, false);
    struct { const char *name; int code, channels; const char *format; } back[] = {
        { "cs-i4202rgb.ppm", cv::COLOR_YUV2RGB_I420, 3, "rgb" },
        { "cs-nv122rgb.ppm", cv::COLOR_YUV2RGB_NV12, 3, "rgb" },
        { "cs-nv122rgba.pam", cv::COLOR_YUV2RGBA_NV12, 4, "rgba" },
        { "cs-nv122bgr.ppm", cv::COLOR_YUV2BGR_NV12, 3, "bgr" },
    };
    for (auto &b : back) {
        bool from_i420 = b.code == cv::COLOR_YUV2RGB_I420;
        cv::Mat out;
        cv::cvtColor(from_i420 ? i420 : nv12, out, b.code);
        std::string name = b.name;
        if (b.channels == 4) { // keep RGB of RGBA (alpha is 255), as PPM
            cv::Mat three;
            cv::cvtColor(out, three, cv::COLOR_RGBA2RGB);
            out = three;
            name = "cs-nv122rgba.ppm";
        }
        save(name, out, true); // the file holds the bytes of `out` (B,G,R for bgr)
        line(name, from_i420 ? "cs-i420.pgm" : "cs-nv12.pgm", from_i420 ? "I420" : "NV12", 1,
             std::string("convert=format=") + b.format + ":" + opts);
    }
    save("cs-i420.pgm", i420, false);

    // ---- scale: every interpolation, shrinking (non-whole factor) on RGB,
    // growing on gray; area and bilinear on whole factors from a crop.
    struct { const char *name; int code; } methods[] = {
        { "nearest", cv::INTER_NEAREST }, { "bilinear", cv::INTER_LINEAR },
        { "bicubic", cv::INTER_CUBIC },   { "area", cv::INTER_AREA },
        { "lanczos", cv::INTER_LANCZOS4 },
    };
    for (auto &m : methods) {
        cv::Mat down, up;
        cv::resize(rgb, down, cv::Size(140, 97), 0, 0, m.code);
        std::string dn = std::string("cs-down-") + m.name + ".ppm";
        save(dn, down, true);
        line(dn, "baboon.ppm", "RGB", 1, std::string("scale=w=140:h=97:method=") + m.name);
        cv::resize(gray, up, cv::Size(250, 190), 0, 0, m.code);
        std::string un = std::string("cs-up-") + m.name + ".pgm";
        save(un, up, false);
        line(un, "fruits-gray.pgm", "GRAY8", 1, std::string("scale=w=250:h=190:method=") + m.name);
    }
    cv::Mat area3, lin2, lin15;
    cv::resize(rgb(cv::Rect(2, 1, 228, 171)), area3, cv::Size(76, 57), 0, 0, cv::INTER_AREA);
    save("cs-area3.ppm", area3, true);
    line("cs-area3.ppm", "baboon.ppm", "RGB", 1,
         "scale=w=76:h=57:method=area:crop-x=2:crop-y=1:crop-w=228:crop-h=171");
    cv::resize(rgb(cv::Rect(0, 0, 230, 172)), lin2, cv::Size(115, 86), 0, 0, cv::INTER_LINEAR);
    save("cs-linear2.ppm", lin2, true);
    line("cs-linear2.ppm", "baboon.ppm", "RGB", 0, "scale=w=115:h=86:method=bilinear:crop-w=230:crop-h=172");
    cv::resize(gray, lin15, cv::Size(118, 87), 0, 0, cv::INTER_LINEAR);
    save("cs-linear15.pgm", lin15, false);
    line("cs-linear15.pgm", "fruits-gray.pgm", "GRAY8", 1, "scale=w=118:h=87:method=bilinear");
    return 0;
}
