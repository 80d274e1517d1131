#include "scene/starter_scenes.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"

namespace plume {

namespace {

// The scenes as written, at their natural sizes. In them `{m:X}` is a length
// (metres), `{v:X}` a speed (m/s), `{r:X}` a rate (1/s), `{n:X}` a rate in
// a volume (1/(m^3 s)) and `{e:X}` an extinction (1/m), each scaled with the
// scene; every other number stays.
struct StarterText {
    StarterScene scene;
    const char* text;
};

const StarterText kStarters[] = {
    {{"chimney", "smoke from a chimney, bent over by a steady wind", 4.0f}, R"(# Smoke from a chimney stack, carried off by the wind.

[domain]
size = [{m:4.0}, {m:2.0}, {m:3.0}]  # metres along x, y and z (up)
resolution = 64                   # cells along the longest side
boundary = { all = "open", z_min = "wall" }  # the wind blows in and out

[time]
frames = 96  # four seconds at 24 frames a second

[physics]
wind = [{v:1.2}, 0.0, 0.0]  # m/s: the air drifts to +x and takes the smoke along
buoyancy_heat = 0.6       # warm smoke rises before the wind lays it over
vorticity = 0.5           # keeps the curls the grid would smooth away
density_dissipation = {r:0.08}  # 1/s: the far end thins out

[upres]
factor = 2  # smoke on a grid twice as fine as the flow: finer curls

[[obstacle]]  # the stack
shape = "box"
center = [{m:0.8}, {m:1.0}, {m:0.8}]
size = [{m:0.3}, {m:0.3}, {m:1.6}]
color = [0.35, 0.2, 0.15]  # brick

[[emitter]]  # the smoke, at the stack's mouth
shape = "box"
center = [{m:0.8}, {m:1.0}, {m:1.7}]
size = [{m:0.22}, {m:0.22}, {m:0.12}]
density = 1.2
temperature = 1.2
velocity = [0.0, 0.0, {v:0.8}]
noise = 0.5

[ground]
enabled = true
color = [0.3, 0.32, 0.25]

[[light]]  # the sun, high and to the side
direction = [-0.4, 0.5, -0.75]
intensity = 3.0
)"},
    {{"wispy", "thin smoke that curls and fades, like incense", 1.2f}, R"(# Thin smoke that rises, curls and fades, as from incense or a blown-out candle.

[domain]
size = [{m:0.6}, {m:0.6}, {m:1.2}]  # metres along x, y and z (up)
resolution = 64                   # cells along the longest side
boundary = { all = "open", z_min = "wall" }

[time]
frames = 96  # four seconds at 24 frames a second

[physics]
buoyancy_heat = 1.0              # warm: the smoke climbs in a thin stream
vorticity = 1.2                  # strong curls break the stream into wisps
turbulence = 0.8                 # m/s^2 of stirring, so no two wisps are alike
turbulence_scale = {m:0.06}
density_dissipation = {r:0.6}    # 1/s: wisps fade as they spread
temperature_dissipation = {r:1.0}

[upres]
factor = 2  # smoke on a grid twice as fine as the flow: finer wisps

[[emitter]]  # a small, steady source
center = [{m:0.3}, {m:0.3}, {m:0.08}]
radius = {m:0.02}
density = 2.0
temperature = 1.0
noise = 0.3

[[light]]
direction = [-0.5, 0.6, -0.6]
intensity = 3.0

[render]
width = 720       # portrait: the stream is tall and narrow
height = 1280
albedo = 0.95     # pale smoke
extinction = {e:60.0}
)"},
    {{"billowy", "thick smoke that rolls up in billows", 4.0f}, R"(# Thick smoke rolling up in billows, as from a burning building.

[domain]
size = [{m:3.0}, {m:3.0}, {m:4.0}]  # metres along x, y and z (up)
resolution = 64                   # cells along the longest side
boundary = { all = "open", z_min = "wall" }

[time]
frames = 96  # four seconds at 24 frames a second

[physics]
buoyancy_heat = 0.5        # warm smoke rises
buoyancy_density = 0.1     # and its weight slows it: it rolls
vorticity = 0.6            # the billows' curls
temperature_dissipation = {r:0.5}

[upres]
factor = 2  # smoke on a grid twice as fine as the flow: finer billows

[[emitter]]  # a wide, dense source
center = [{m:1.5}, {m:1.5}, {m:0.4}]
radius = {m:0.4}
density = 2.0
temperature = 1.5
noise = 0.6

[ground]
enabled = true

[[light]]
direction = [-0.4, 0.5, -0.75]
intensity = 3.0

[render]
albedo = 0.7       # dark smoke: its folds shade each other
extinction = {e:40.0}
)"},
    {{"fog", "cold fog spilling along the ground", 4.0f}, R"(# Cold fog that spills along the ground and creeps around a rock.

[domain]
size = [{m:4.0}, {m:3.0}, {m:1.2}]  # metres along x, y and z (up): wide and low
resolution = 64                   # cells along the longest side
boundary = { all = "open", z_min = "wall" }

[time]
frames = 96  # four seconds at 24 frames a second

[physics]
buoyancy_heat = 1.0     # temperature below the air's: the fog sinks
buoyancy_density = 0.1  # and its weight keeps it low
vorticity = 0.3

[[emitter]]  # cold, dense air flowing in from the left, along the floor
shape = "box"
center = [{m:0.3}, {m:1.5}, {m:0.12}]
size = [{m:0.4}, {m:2.4}, {m:0.2}]
density = 0.8
temperature = -1.0
velocity = [{v:0.8}, 0.0, 0.0]
noise = 0.5

[[obstacle]]  # a rock in its way
center = [{m:2.2}, {m:1.4}, 0.0]
radius = {m:0.35}
color = [0.3, 0.3, 0.28]

[ground]
enabled = true
color = [0.2, 0.25, 0.18]

[[light]]  # a low morning sun
direction = [0.6, 0.6, -0.5]
color = [1.0, 0.9, 0.8]
intensity = 2.5

[render]
albedo = 0.95
extinction = {e:20.0}  # fog is thin: it veils the ground, never hides it
)"},
    {{"candle", "a candle's small, steady flame", 0.25f}, R"(# A candle's small, steady flame, and the thin smoke above it.

[domain]
size = [{m:0.1}, {m:0.1}, {m:0.25}]  # metres along x, y and z (up)
resolution = 64                     # cells along the longest side
boundary = { all = "open", z_min = "wall" }

[time]
frames = 72  # three seconds at 24 frames a second

[physics]
buoyancy_heat = 1.0
vorticity = 0.2          # a candle burns steadily: few curls
ignition_temperature = 0.3
burn_rate = {r:40.0}     # 1/s: the fuel burns fast, in a short flame
flame_heat = 1.0
flame_smoke = 0.02       # almost no soot
flame_cooling = {r:40.0}

[[obstacle]]  # the candle
shape = "box"
center = [{m:0.05}, {m:0.05}, {m:0.025}]
size = [{m:0.025}, {m:0.025}, {m:0.05}]
color = [0.85, 0.8, 0.7]  # wax

[[emitter]]  # the wick
center = [{m:0.05}, {m:0.05}, {m:0.06}]
radius = {m:0.008}
temperature = 1.0
fuel = 1.0
velocity = [0.0, 0.0, {v:0.2}]

[render]
background_top = [0.01, 0.01, 0.015]  # a dark room
background_bottom = [0.015, 0.015, 0.02]
ambient = [0.01, 0.01, 0.015]
width = 720       # portrait
height = 1280
emission = 30.0   # a small flame glows brightly for its size
exposure = 0.6
)"},
    {{"campfire", "a campfire: flames, soot, sparks and logs", 2.4f}, R"(# A campfire at night: flames over crossed logs, soot, and sparks.

[domain]
size = [{m:1.6}, {m:1.6}, {m:2.4}]  # metres along x, y and z (up)
resolution = 64                   # cells along the longest side
boundary = { all = "open", z_min = "wall" }

[time]
frames = 72  # three seconds at 24 frames a second

[physics]
buoyancy_heat = 0.8
vorticity = 0.6
turbulence = 2.0                # m/s^2 of stirring, so the flames flicker
turbulence_scale = {m:0.12}
temperature_dissipation = {r:2.0}
density_dissipation = {r:0.15}
ignition_temperature = 0.3      # fuel burns above this temperature
burn_rate = {r:5.0}             # 1/s
flame_heat = 2.0                # heat the burning gives
flame_smoke = 0.35              # soot it leaves
flame_expansion = 0.5           # burning gas swells
flame_cooling = {r:3.0}

[sparks]
rate = {n:4000.0}   # sparks a second a cubic metre of the flame's hottest parts
size = {m:0.008}

[[emitter]]  # fuel among the logs
shape = "box"
center = [{m:0.8}, {m:0.8}, {m:0.14}]
size = [{m:0.5}, {m:0.3}, {m:0.08}]
temperature = 1.0
fuel = 1.0
noise = 0.8
noise_scale = {m:0.15}
noise_speed = {r:4.0}

[[obstacle]]  # two crossed logs
shape = "box"
center = [{m:0.8}, {m:0.8}, {m:0.06}]
size = [{m:0.7}, {m:0.12}, {m:0.12}]
rotation = [0.0, 0.0, 20.0]
color = [0.18, 0.1, 0.06]

[[obstacle]]
shape = "box"
center = [{m:0.8}, {m:0.8}, {m:0.06}]
size = [{m:0.7}, {m:0.12}, {m:0.12}]
rotation = [0.0, 0.0, -25.0]
color = [0.16, 0.09, 0.05]

[ground]
enabled = true
color = [0.12, 0.1, 0.08]

[[light]]  # moonlight
direction = [0.3, 0.6, -0.7]
color = [0.5, 0.6, 1.0]
intensity = 2.0

[render]
extinction = {e:30.0}
background_top = [0.04, 0.05, 0.09]
background_bottom = [0.08, 0.08, 0.1]
ambient = [0.1, 0.12, 0.2]
emission = 12.0   # how bright the flame glows
exposure = 0.75
)"},
    {{"torch", "a torch's flame, a jet with sparks", 1.0f}, R"(# A torch: a tall jet of flame on a post, with a few sparks.

[domain]
size = [{m:0.5}, {m:0.5}, {m:1.0}]  # metres along x, y and z (up)
resolution = 96                   # cells along the longest side: a narrow jet needs them
boundary = { all = "open", z_min = "wall" }

[time]
frames = 72  # three seconds at 24 frames a second

[physics]
buoyancy_heat = 1.0
vorticity = 0.6
temperature_dissipation = {r:3.0}
density_dissipation = {r:0.5}
ignition_temperature = 0.3
burn_rate = {r:14.0}
flame_heat = 1.0
flame_smoke = 0.05
flame_expansion = 0.3
flame_cooling = {r:20.0}

[upres]
factor = 2  # the flame on a grid twice as fine as the flow

[sparks]
size = {m:0.004}

[[obstacle]]  # the post
shape = "box"
center = [{m:0.25}, {m:0.25}, {m:0.05}]
size = [{m:0.05}, {m:0.05}, {m:0.1}]
color = [0.25, 0.25, 0.27]

[[emitter]]  # the burner: fuel blown upward
center = [{m:0.25}, {m:0.25}, {m:0.13}]
radius = {m:0.025}
temperature = 1.0
fuel = 1.0
velocity = [0.0, 0.0, {v:3.0}]
noise = 0.3
noise_scale = {m:0.02}
noise_speed = {r:6.0}
sparks = {r:12.0}

[ground]
enabled = true
color = [0.12, 0.11, 0.1]

[[light]]  # moonlight
direction = [0.3, 0.6, -0.7]
color = [0.6, 0.65, 0.8]
intensity = 0.5

[camera]  # close: the flame is small in its domain
position = [{m:0.25}, {m:-1.2}, {m:0.4}]
look_at = [{m:0.25}, {m:0.25}, {m:0.4}]
fov = 40.0

[render]
width = 640   # portrait: the flame is tall
height = 720
background_top = [0.02, 0.02, 0.03]  # night
background_bottom = [0.03, 0.03, 0.035]
ambient = [0.03, 0.03, 0.04]
emission = 12.0
exposure = 0.6
)"},
    {{"fireball", "a rising fireball that turns to smoke", 4.0f}, R"(# A fireball: a burst of fuel that burns as it rises and rolls into black smoke.

[domain]
size = [{m:3.0}, {m:3.0}, {m:4.0}]  # metres along x, y and z (up)
resolution = 64                   # cells along the longest side
boundary = { all = "open", z_min = "wall" }

[time]
frames = 60  # two and a half seconds at 24 frames a second

[physics]
buoyancy_density = 0.05
buoyancy_heat = 0.6
vorticity = 0.9               # the rolling surface of the ball
temperature_dissipation = {r:0.8}
ignition_temperature = 0.3
burn_rate = {r:2.0}
flame_heat = 1.2
flame_smoke = 0.4             # a lot of soot: the ball turns black
flame_smoke_color = [0.2, 0.18, 0.17]
flame_expansion = 0.6
flame_cooling = {r:1.5}

[upres]
factor = 2

[sparks]
size = {m:0.02}
bounce = 0.3

[[emitter]]  # fuel for the first nine frames only
center = [{m:1.5}, {m:1.5}, {m:0.5}]
radius = {m:0.35}
temperature = 1.0
fuel = 1.5
velocity = [0.0, 0.0, {v:2.0}]
frames = [1, 9]
noise = 0.7
noise_scale = {m:0.12}
sparks = {r:400.0}

[ground]
enabled = true
color = [0.3, 0.28, 0.25]

[[light]]
direction = [0.5, 0.4, -0.6]
intensity = 2.5

[render]
extinction = {e:25.0}
emission = 12.0
fire_temperature = 900.0  # kelvin of the flame's hottest: a deep orange
)"},
    {{"explosion", "a sudden blast: a fast, expanding burst of fire", 6.0f}, R"(# An explosion: fuel let go at once, thrown outward, that burns out into a cloud.

[domain]
size = [{m:6.0}, {m:6.0}, {m:6.0}]  # metres along x, y and z (up)
resolution = 64                   # cells along the longest side
boundary = { all = "open", z_min = "wall" }

[time]
frames = 72  # three seconds at 24 frames a second
cfl = 2.0
max_substeps = 8  # the blast is fast: more steps a frame

[physics]
buoyancy_heat = 0.6
vorticity = 1.0               # a turbulent front
ignition_temperature = 0.2
burn_rate = {r:6.0}           # burns out in a second
flame_heat = 1.2
flame_smoke = 0.5
flame_smoke_color = [0.18, 0.16, 0.15]
flame_expansion = 1.5         # the burning gas swells hard: the blast
flame_cooling = {r:2.0}

[upres]
factor = 2

[sparks]
size = {m:0.03}
bounce = 0.3

[[emitter]]  # the charge: three frames of fuel, thrown up and out
center = [{m:3.0}, {m:3.0}, {m:0.6}]
radius = {m:0.6}
temperature = 1.5
fuel = 1.5
velocity = [0.0, 0.0, {v:4.0}]
frames = [1, 3]
noise = 0.8
noise_scale = {m:0.3}
sparks = {r:2000.0}

[ground]
enabled = true
color = [0.3, 0.27, 0.22]

[[light]]
direction = [0.5, 0.4, -0.6]
intensity = 2.5

[render]
extinction = {e:20.0}
emission = 8.0
fire_temperature = 1000.0  # kelvin of the flame's hottest: orange, not white
)"},
};

// `x` as a scene file writes a number: up to five significant digits.
std::string number(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.5g", x);
    std::string s = buf;
    // TOML wants a float to look like one.
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

// A line whose numbers were scaled keeps its comment two spaces after them:
// the alignment written was for the numbers as written.
void closeUpComment(std::string& line) {
    const size_t hash = line.find("  #");
    if (hash == std::string::npos) return;
    size_t start = hash;
    while (start > 0 && line[start - 1] == ' ') --start;
    line.replace(start, hash + 2 - start, "  ");
}

// The text with each {u:X} replaced by X scaled for its unit u.
std::string scaled(const char* text, double s) {
    std::string out, line;
    bool changed = false;
    for (const char* p = text; *p;) {
        if (p[0] == '{' && p[1] && p[2] == ':') {
            const char unit = p[1];
            char* end = nullptr;
            const double x = std::strtod(p + 3, &end);
            if (end && *end == '}') {
                const double factor = unit == 'm'   ? s
                                      : unit == 'v' ? std::sqrt(s)
                                      : unit == 'r' ? 1.0 / std::sqrt(s)
                                      : unit == 'n' ? 1.0 / (s * s * s * std::sqrt(s))
                                                    : 1.0 / s;  // 'e'
                line += number(x * factor);
                changed = true;
                p = end + 1;
                continue;
            }
        }
        if (*p == '\n') {
            if (changed) closeUpComment(line);
            out += line + '\n';
            line.clear();
            changed = false;
            ++p;
            continue;
        }
        line += *p++;
    }
    if (changed) closeUpComment(line);
    return out + line;
}

}  // namespace

std::span<const StarterScene> starterScenes() {
    static const auto scenes = [] {
        std::array<StarterScene, std::size(kStarters)> a{};
        for (size_t i = 0; i < a.size(); ++i) a[i] = kStarters[i].scene;
        return a;
    }();
    return scenes;
}

std::string starterSceneText(std::string_view kind, float size, const std::string& command) {
    for (const StarterText& starter : kStarters) {
        if (kind != starter.scene.kind) continue;
        const double s = size > 0.0f ? double(size) / starter.scene.size : 1.0;
        std::string text = scaled(starter.text, s);
        // The header: what made it, then the scene's own first line.
        return "# Written by `" + command + "`: every key here is in scenes/README.md.\n" + text;
    }
    std::string kinds;
    for (const StarterText& starter : kStarters)
        kinds += std::string(kinds.empty() ? "" : ", ") + starter.scene.kind;
    throw InputError("plume new: error: no starting point '" + std::string(kind) +
                     "' (kinds: " + kinds + ")");
}

}  // namespace plume
