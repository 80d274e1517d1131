// The points of points emitters (shape = "points"), checked before a bake:
// every file of the sequence is read once, so a bad or missing one stops the
// run at its scene key before any simulation (io/point_file.h reads them).
#pragma once

#include "scene/scene.h"

namespace plume {

// Fills `points` of every points emitter. Throws InputError at its `file`
// key, naming the file: "SCENE:LINE:COL: error: emitter[1].file: 'parts_0003.ply':
// the data ends in vertex 12 of 40".
void loadScenePoints(Scene& scene);

}  // namespace plume
