// Whether the tests run under AddressSanitizer, as GCC says it
// (__SANITIZE_ADDRESS__) and as clang does (__has_feature).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define PLUME_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PLUME_ASAN 1
#endif
#endif

namespace plume::test {

// AddressSanitizer reserves terabytes of address space for its shadow memory
// at start-up, which an address-space cap (ulimit -v) forbids.
#if PLUME_ASAN
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

}  // namespace plume::test
