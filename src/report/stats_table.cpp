#include "report/stats_table.h"

#include <cstdio>

namespace plume {

const std::vector<StatsColumn>& statsColumns() {
    using F = StatsColumn::Format;
    // The first eight are the CSV's columns as they always were (scripts read
    // them by position); new ones go at the end.
    static const std::vector<StatsColumn> columns = {
        {"frame", "Frame", "frame", F::Integer},
        {"substeps", "Substeps", "substeps per frame", F::Integer},
        {"pressure_iterations", "Pressure iterations", "iterations (sum over substeps)",
         F::Integer},
        {"pressure_residual", "Pressure residual", "relative residual (largest)", F::Significant3,
         true},
        {"sim_s", "Simulation time", "seconds (wall)", F::Seconds},
        {"render_s", "Render time", "seconds (wall)", F::Seconds},
        {"write_s", "Write time", "seconds (wall)", F::Seconds},
        {"cells", "Cells held", "cells (largest in the frame)", F::Integer},
        {"smoke", "Smoke", "density × m³", F::Significant6},
        {"fuel", "Fuel", "fuel × m³", F::Significant6},
        {"peak_speed", "Peak speed", "m/s (fastest face)", F::Significant6},
        {"read_s", "Read time", "seconds (wall, reading a cache)", F::Seconds},
        {"sparks", "Sparks", "sparks alive at the frame's end", F::Integer},
    };
    return columns;
}

std::string statsCsvHeader() {
    std::string line;
    for (const StatsColumn& c : statsColumns())
        line += (line.empty() ? "" : ",") + std::string(c.name);
    return line + "\n";
}

std::string statsCsvLine(const std::vector<double>& values) {
    const std::vector<StatsColumn>& columns = statsColumns();
    std::string line;
    for (size_t i = 0; i < columns.size() && i < values.size(); ++i) {
        char text[64];
        switch (columns[i].format) {
            case StatsColumn::Format::Integer:
                std::snprintf(text, sizeof text, "%llu",
                              static_cast<unsigned long long>(values[i]));
                break;
            case StatsColumn::Format::Seconds:
                std::snprintf(text, sizeof text, "%.4f", values[i]);
                break;
            case StatsColumn::Format::Significant3:
                std::snprintf(text, sizeof text, "%.3g", values[i]);
                break;
            case StatsColumn::Format::Significant6:
                std::snprintf(text, sizeof text, "%.6g", values[i]);
                break;
        }
        line += (i ? "," : "") + std::string(text);
    }
    return line + "\n";
}

}  // namespace plume
