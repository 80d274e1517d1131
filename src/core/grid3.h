// Grid3<T>: a dense 3D array, x fastest in memory, that knows where its samples sit.
//
// A cell-centred field has offset (0.5, 0.5, 0.5): sample (i, j, k) sits at grid
// position (i + 0.5, j + 0.5, k + 0.5) in cell units. The staggered velocity
// components have offsets (0, .5, .5), (.5, 0, .5) and (.5, .5, 0). Sampling
// goes through the grid's layout (core/interpolation.h), which subtracts the
// offset once, so no caller has to.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/interpolation.h"
#include "core/vec.h"

namespace plume {

template <typename T>
class Grid3 {
  public:
    Grid3() = default;
    Grid3(int nx, int ny, int nz, Vec3f offset = Vec3f(0.5f), T value = T{})
        : nx_(nx),
          ny_(ny),
          nz_(nz),
          offset_(offset),
          data_(static_cast<size_t>(nx) * ny * nz, value) {}

    int nx() const { return nx_; }
    int ny() const { return ny_; }
    int nz() const { return nz_; }
    size_t size() const { return data_.size(); }
    Vec3f offset() const { return offset_; }
    size_t strideY() const { return static_cast<size_t>(nx_); }
    size_t strideZ() const { return static_cast<size_t>(nx_) * ny_; }

    size_t index(int i, int j, int k) const { return (static_cast<size_t>(k) * ny_ + j) * nx_ + i; }
    T& operator()(int i, int j, int k) { return data_[index(i, j, k)]; }
    const T& operator()(int i, int j, int k) const { return data_[index(i, j, k)]; }
    T& operator[](size_t n) { return data_[n]; }
    const T& operator[](size_t n) const { return data_[n]; }
    T* data() { return data_.data(); }
    const T* data() const { return data_.data(); }
    std::vector<T>& values() { return data_; }
    const std::vector<T>& values() const { return data_; }

    bool inside(int i, int j, int k) const {
        return i >= 0 && j >= 0 && k >= 0 && i < nx_ && j < ny_ && k < nz_;
    }
    const T& clamped(int i, int j, int k) const {
        return (*this)(std::clamp(i, 0, nx_ - 1), std::clamp(j, 0, ny_ - 1),
                       std::clamp(k, 0, nz_ - 1));
    }
    void fill(T value) { std::fill(data_.begin(), data_.end(), value); }
    // Takes another shape in the same storage: no allocation while the new
    // size is within what the grid has held (std::vector keeps its
    // capacity). The values are then whatever was there.
    void reshape(int nx, int ny, int nz, Vec3f offset) {
        nx_ = nx, ny_ = ny, nz_ = nz;
        offset_ = offset;
        data_.resize(static_cast<size_t>(nx) * ny * nz);
    }
    void swap(Grid3& other) noexcept {
        std::swap(nx_, other.nx_);
        std::swap(ny_, other.ny_);
        std::swap(nz_, other.nz_);
        std::swap(offset_, other.offset_);
        data_.swap(other.data_);
    }

    // Where the samples sit, for the stencils of core/interpolation.h.
    SampleLayout layout() const { return SampleLayout(nx_, ny_, nz_, offset_); }

    // Trilinear sample at pGrid, a position in cell units from the domain's
    // min corner; clamps to the outermost samples.
    T sample(Vec3f pGrid) const { return blend(data_.data(), layout().stencil(pGrid)); }

  private:
    int nx_ = 0, ny_ = 0, nz_ = 0;
    Vec3f offset_{0.5f};
    std::vector<T> data_;
};

using ScalarGrid = Grid3<float>;

}  // namespace plume
