// Wedges: --wedge arguments and the variants they multiply into.
#include "farm/wedge.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "farm/farm.h"

namespace plume {
namespace {

TEST(Wedge, ValuesSplitAtCommasOutsideArraysAndQuotes) {
    Wedge w = parseWedge("emitter[1].center=[0.5, 0.5, 0.2],[1,1,1]");
    EXPECT_EQ(w.key, "emitter[1].center");
    EXPECT_EQ(w.values, (std::vector<std::string>{"[0.5, 0.5, 0.2]", "[1,1,1]"}));
    w = parseWedge("emitter[1].shape=\"box\",\"a,b\"");
    EXPECT_EQ(w.values, (std::vector<std::string>{"\"box\"", "\"a,b\""}));
}

TEST(Wedge, MalformedArgumentsAreOneLineErrors) {
    for (const char* bad : {"physics.vorticity", "=1,2", "physics.vorticity=1,,2"}) {
        try {
            parseWedge(bad);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()).rfind(std::string("--wedge ") + bad + ": error: ", 0),
                      0u)
                << e.what();
        }
    }
}

TEST(Wedge, VariantsAreTheCartesianProductNamedByValue) {
    const auto variants = wedgeVariants(
        {parseWedge("physics.vorticity=0.2,0.5"), parseWedge("physics.buoyancy_heat=0.3,0.6")});
    ASSERT_EQ(variants.size(), 4u);
    EXPECT_EQ(variants[0].name, "vorticity-0.2+buoyancy_heat-0.3");
    EXPECT_EQ(variants[1].name, "vorticity-0.2+buoyancy_heat-0.6");
    EXPECT_EQ(variants[3].label, "vorticity=0.5 buoyancy_heat=0.6");
    EXPECT_EQ(variants[2].overrides,
              (std::vector<std::string>{"physics.vorticity=0.5", "physics.buoyancy_heat=0.3"}));
    // No wedge: one unnamed variant.
    const auto one = wedgeVariants({});
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].name, "");
    // Keys that end alike are named in full.
    const auto both =
        wedgeVariants({parseWedge("emitter[1].density=1"), parseWedge("emitter[2].density=2")});
    EXPECT_EQ(both[0].name, "emitter_1_.density-1+emitter_2_.density-2");
}

TEST(Wedge, ShellQuoting) {
    EXPECT_EQ(shellQuote("a b"), "'a b'");
    EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
}

}  // namespace
}  // namespace plume
