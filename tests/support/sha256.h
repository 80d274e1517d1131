// SHA-256 of golden frames, through OpenSSL's libcrypto (Debian libssl-dev).
#pragma once

#include <openssl/evp.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace plume::test {

inline std::string sha256Hex(const uint8_t* data, size_t size) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(data, size, digest, &length, EVP_sha256(), nullptr) != 1)
        return "EVP_Digest failed";
    std::string hex;
    char byte[3];
    for (unsigned int i = 0; i < length; ++i) {
        std::snprintf(byte, sizeof byte, "%02x", digest[i]);
        hex += byte;
    }
    return hex;
}

inline std::string sha256Hex(const std::string& s) {
    return sha256Hex(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

}  // namespace plume::test
