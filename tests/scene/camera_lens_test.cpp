// A camera given as Blender gives it, by focal_length and sensor_width (mm,
// sensor fit Auto: the sensor's width spans the image's larger side), frames
// what the same field of view given as fov frames.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <numbers>
#include <sstream>
#include <string>

#include "render/renderer.h"
#include "scene/loader.h"
#include "sim/solver.h"
#include "support/render_scene.h"

namespace plume {
namespace {

// A puff seen by a camera whose lens is `lens` ("fov = 45", "focal_length = ...").
std::string sceneWith(const std::string& lens, int width, int height) {
    return "[domain]\nsize = [1.0, 1.0, 1.5]\nresolution = 20\nboundary = \"open\"\n"
           "[time]\nframes = 4\nmax_substeps = 2\n"
           "[[emitter]]\nshape = \"sphere\"\ncenter = [0.5, 0.5, 0.25]\nradius = 0.15\n"
           "temperature = 1.5\n"
           "[camera]\nposition = [0.5, -1.8, 0.75]\nlook_at = [0.5, 0.5, 0.7]\n" +
           lens + "\n[render]\nwidth = " + std::to_string(width) +
           "\nheight = " + std::to_string(height) + "\n";
}

std::vector<Image> render(const std::string& text) {
    return test::renderEveryFrame(parseScene(text, "lens.toml"));
}

// The focal length (mm) whose sensor fit Auto gives the vertical fov `degrees`.
std::string focalLengthFor(double degrees, double sensor, int width, int height) {
    const double halfHeight = std::tan(0.5 * degrees * std::numbers::pi / 180.0);
    // The sensor spans the larger side; the height is its share of it.
    const double halfSensorHeight = 0.5 * sensor * std::min(1.0, double(height) / width);
    std::ostringstream s;
    s << std::setprecision(17) << "focal_length = " << halfSensorHeight / halfHeight
      << "\nsensor_width = " << sensor;
    return s.str();
}

// The two lenses differ at most by a rounding of the ray's direction.
void expectSameFrames(const std::vector<Image>& a, const std::vector<Image>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t f = 0; f < a.size(); ++f) {
        ASSERT_EQ(a[f].pixels.size(), b[f].pixels.size());
        int worst = 0;
        size_t differing = 0, lit = 0;
        for (size_t n = 0; n < a[f].pixels.size(); ++n) {
            const int d = std::abs(int(a[f].pixels[n]) - int(b[f].pixels[n]));
            worst = std::max(worst, d);
            differing += d != 0;
            lit += a[f].pixels[n] > 40;
        }
        EXPECT_LE(worst, 1) << "frame " << f + 1;
        EXPECT_LE(differing, a[f].pixels.size() / 100) << "frame " << f + 1;
        EXPECT_GT(lit, 0u);
    }
}

TEST(CameraLens, AFocalLengthFramesAsItsFovDoes) {
    // Landscape: the 36 mm sensor spans the width.
    expectSameFrames(render(sceneWith("fov = 45", 96, 54)),
                     render(sceneWith(focalLengthFor(45, 36, 96, 54), 96, 54)));
}

TEST(CameraLens, PortraitFramesSpanTheSensorAcrossTheHeight) {
    expectSameFrames(render(sceneWith("fov = 50", 40, 64)),
                     render(sceneWith(focalLengthFor(50, 24, 40, 64), 40, 64)));
}

TEST(CameraLens, ALongerLensSeesLess) {
    // Not the same frame: the lens is read, not ignored.
    const std::vector<Image> wide = render(sceneWith("focal_length = 20", 48, 28));
    const std::vector<Image> tele = render(sceneWith("focal_length = 80", 48, 28));
    EXPECT_FALSE(wide.back().pixels == tele.back().pixels);
}

}  // namespace
}  // namespace plume
