// Library warnings go through one reporter (core/report.h): stderr unless the
// program installs a sink, and back to the previous sink when it goes.
#include "core/report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace plume {
namespace {

TEST(Report, WithoutASinkAWarningIsOneLineOnStderr) {
    testing::internal::CaptureStderr();
    warn("'a.vdb': grid 'density' is rotated");
    EXPECT_EQ(testing::internal::GetCapturedStderr(),
              "plume: warning: 'a.vdb': grid 'density' is rotated\n");
}

TEST(Report, AScopedSinkTakesWarningsUntilItGoes) {
    std::vector<std::string> outer, inner;
    testing::internal::CaptureStderr();
    {
        ScopedWarningSink a([&](const std::string& m) { outer.push_back(m); });
        warn("one");
        {
            ScopedWarningSink b([&](const std::string& m) { inner.push_back(m); });
            warn("two");
        }
        warn("three");
    }
    warn("four");
    EXPECT_EQ(outer, (std::vector<std::string>{"one", "three"}));
    EXPECT_EQ(inner, (std::vector<std::string>{"two"}));
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "plume: warning: four\n");
}

}  // namespace
}  // namespace plume
