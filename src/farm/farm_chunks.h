// Which frames each render task of plume farm renders: frames 1..N cut into
// chunks of `chunk` frames, one Slurm array task each (the last one shorter
// when chunk does not divide N). The task computes its own range in bash from
// $SLURM_ARRAY_TASK_ID; both the array's size and that bash come from here,
// so the two cannot disagree (tests/system/farm_chunks_test.cpp runs the bash).
#pragma once

#include <string>

namespace plume {

struct FarmChunks {
    int frames = 1;  // N: the scene's frames, S..S + N - 1
    int chunk = 1;   // frames per task, >= 1
    int start = 1;   // S: the first frame's number (time.start_frame)

    // The array tasks, 0..tasks() - 1 (#SBATCH --array=0-<tasks() - 1>).
    int tasks() const { return (frames + chunk - 1) / chunk; }

    // Bash that sets $first and $last (inclusive) from $task, the frames
    // the task renders; what render.sh runs.
    std::string rangeBash() const;
};

}  // namespace plume
