#include "io/mesh_file.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "core/input_file.h"
#include "io/mesh_header.h"

namespace plume {

namespace {

struct PointHash {
    std::size_t operator()(const std::array<float, 3>& p) const {
        std::size_t h = 0;
        for (float c : p) {
            uint32_t bits;
            std::memcpy(&bits, &c, sizeof bits);
            h = h * 0x9e3779b97f4a7c15ull + bits;
        }
        return h;
    }
};

}  // namespace

TriangleMesh readMeshFile(const std::string& path) {
    // Not a file (a FIFO would block the open below): refuse before opening.
    if (std::string why = notRegularFile(path); !why.empty())
        throw GeometryError("cannot read '" + path + "' (" + why + ")");
    // Missing or unreadable: say so plainly rather than as Assimp's guess.
    if (!std::ifstream(path, std::ios::binary))
        throw GeometryError("cannot read '" + path + "' (" +
                            (std::filesystem::exists(path) ? "permission denied" : "no such file") +
                            ")");
    // A header promising more than the file holds: refuse before Assimp allocates for it.
    if (std::string why = meshHeaderProblem(path); !why.empty())
        throw GeometryError("cannot read '" + path + "' (" + why + ")");
    Assimp::Importer importer;
    // Node transforms are applied below, not by aiProcess_PreTransformVertices,
    // which rejects a file without meshes instead of letting us say why.
    const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate);
    if (!scene || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE))
        throw GeometryError("cannot read '" + path + "' (" + importer.GetErrorString() + ")");

    // Weld vertices by exact position
    TriangleMesh mesh;
    std::unordered_map<std::array<float, 3>, uint32_t, PointHash> index;
    auto weld = [&](const aiVector3D& v) {
        auto [it, added] = index.try_emplace({v.x, v.y, v.z}, uint32_t(mesh.points.size()));
        if (added) mesh.points.emplace_back(v.x, v.y, v.z);
        return it->second;
    };
    auto addNode = [&](auto&& self, const aiNode* node, aiMatrix4x4 toScene) -> void {
        toScene = toScene * node->mTransformation;
        for (unsigned m = 0; m < node->mNumMeshes; ++m) {
            const aiMesh* am = scene->mMeshes[node->mMeshes[m]];
            for (unsigned f = 0; f < am->mNumFaces; ++f) {
                const aiFace& face = am->mFaces[f];
                if (face.mNumIndices != 3) continue;  // points and lines
                std::array<uint32_t, 3> t;
                for (int c = 0; c < 3; ++c) t[c] = weld(toScene * am->mVertices[face.mIndices[c]]);
                // A triangle collapsed by welding has no area and no edges to share.
                if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0]) continue;
                mesh.triangles.push_back(t);
            }
        }
        for (unsigned c = 0; c < node->mNumChildren; ++c) self(self, node->mChildren[c], toScene);
    };
    if (scene->mRootNode) addNode(addNode, scene->mRootNode, aiMatrix4x4());
    return mesh;
}

std::size_t countOpenEdges(const TriangleMesh& mesh) {
    std::unordered_map<uint64_t, int> uses;
    for (const auto& t : mesh.triangles)
        for (int c = 0; c < 3; ++c) {
            uint64_t a = t[c], b = t[(c + 1) % 3];
            ++uses[std::min(a, b) << 32 | std::max(a, b)];
        }
    std::size_t open = 0;
    for (const auto& [edge, count] : uses) open += count == 1;
    return open;
}

}  // namespace plume
