// The columns of --stats, in one place: the CSV's header and rows and the
// --report page's charts (one per column after the frame) are made from this
// table, so the two never disagree. A new statistic is a row here and a value
// in statsValues (run/output_sinks.h, which reads it from a frame).
#pragma once

#include <string>
#include <vector>

namespace plume {

struct StatsColumn {
    const char* name;   // the CSV header's word
    const char* title;  // the chart's title
    const char* unit;   // the chart's y axis
    // How the CSV prints it: an integer, seconds to 0.1 ms, or significant digits.
    enum class Format { Integer, Seconds, Significant3, Significant6 } format;
    bool logScale = false;  // a residual spans decades
};

// frame first, then one column per statistic.
const std::vector<StatsColumn>& statsColumns();

// "frame,substeps,...\n" and one row of values as the CSV prints it.
std::string statsCsvHeader();
std::string statsCsvLine(const std::vector<double>& values);

}  // namespace plume
