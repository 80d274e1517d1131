// The scene loader's shapes read from files: an emitter's or obstacle's
// mesh path, resolved beside the scene file.
#include <filesystem>

#include "scene/loader_reader.h"

namespace plume::loader {

// A mesh's file: resolved beside the scene file, with where its key sits so
// io can report a bad mesh at the key. A mesh without a file is an error here.
void SceneReader::placeFile(ShapeSettings& shape, const std::string& display,
                            const toml::node& element) {
    auto it = given_.find(display + ".file");
    if (shape.shape != Shape::Mesh) return;
    if (it == given_.end()) {
        fail(element.source(), "'" + display + ".file' is required for shape = \"mesh\"");
        return;
    }
    namespace fs = std::filesystem;
    fs::path file(shape.file);
    shape.filePath =
        file.is_absolute() ? file.string() : (fs::path(path_).parent_path() / file).string();
    shape.fileLine = int(it->second.begin.line);
    shape.fileColumn = int(it->second.begin.column);
}

}  // namespace plume::loader
