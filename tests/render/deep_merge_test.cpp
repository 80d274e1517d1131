// A ray's parts merged into deep samples (render/output/deep_image.h).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "render/output/deep_image.h"

namespace plume {
namespace {

// Two parts of smoke, each half the opacity (so two samples), the second's
// front a rounding before the first's back: the samples still do not
// overlap, as deep readers (oiiotool --flatten) expect.
TEST(DeepMerge, SamplesNeverOverlapWhenPartsMeetByARounding) {
    RaySegment a, b;
    a.z0 = 2.0f;
    a.z1 = 2.13898f;
    a.before = 1.0f;
    a.transmittance = 0.5f;
    b.z0 = std::nextafter(a.z1, 0.0f);
    b.z1 = 2.3f;
    b.before = 0.5f;
    b.transmittance = 0.5f;
    std::vector<DeepSample> out;
    mergeSegments({a, b}, 2, out);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_LE(out[0].zBack, out[1].z);
    EXPECT_LE(out[1].z, out[1].zBack);
}

}  // namespace
}  // namespace plume
