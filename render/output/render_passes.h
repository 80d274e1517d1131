// Render passes (render.passes), as compositors take Cycles' passes and
// light groups: the traced frame's light split by where it comes from, in
// layers that sum to the beauty (the frame over the background).
//
// The march is linear in the light each sample sends toward the camera and
// in what it emits, for a fixed transmittance: a layer is the frame traced
// again through the same ShadingGrid with only its part of the light
// switched on (one light, the sky, the fire's light, the emission), so the
// layers add up to the beauty within float rounding, and the beauty's own
// trace (render/march/ray_marcher.h) is untouched. Solids and the ground take their
// light from the same lights, so their lit colour falls into the same layers;
// the background seen behind the frame belongs to the sky's.
#pragma once

#include <string>
#include <vector>

namespace plume {

// Depth where a pixel's ray never falls to half its transmittance: what
// Cycles' Z holds for the background, far beyond any scene, finite so that
// a compositor's arithmetic on it stays finite.
constexpr float kNoDepth = 1e10f;

// One layer of colour: linear RGB, premultiplied like the beauty.
struct PassLayer {
    std::string name;        // "emission", "light_1" (or the light's name), "sky", "fire_light"
    std::vector<float> rgb;  // width * height * 3, row 0 at the top
};

// A frame's passes, as Renderer::passes gives them.
struct RenderPasses {
    int width = 0, height = 0;
    std::vector<PassLayer> layers;  // in the order of render.passes' reference
    // Metres from the camera along each pixel's centre ray to where its
    // transmittance falls to 1/2 (kNoDepth where it never does); empty
    // without the depth pass.
    std::vector<float> depth;
    // The screen-space motion of what each pixel sees (render.passes
    // "motion"), pixels a frame, two floats a pixel: u to the right, v up (as
    // Nuke's VectorBlur reads it); empty without the motion pass.
    std::vector<float> motion;
};

// What one trace of the frame lights: everything (the beauty) or one pass's
// part of it.
struct LightPart {
    bool emission = true;  // the fire's (and hot smoke's) own light
    bool sky = true;       // render.ambient, on smoke and solids
    bool fire = true;      // a flame's light on smoke and solids
    int light = -1;        // with !all: the only scene light left on (-1: none)
    bool all = true;       // every light

    static LightPart beauty() { return {}; }
    static LightPart only(bool emission, bool sky, bool fire, int light) {
        return {emission, sky, fire, light, false};
    }
    // Whether scene light `index` shines in this part.
    bool shines(int index) const { return all || index == light; }
};

}  // namespace plume
