#ifndef CCRYPTO_H
#define CCRYPTO_H

#include <stddef.h>

// OpenSSL's libcrypto, loaded with dlopen on the first digest: a start-up links no cryptography
// library (the trace's digest of a frame it cannot parse is the only user, and a rare one).

// SHA-256 of `length` bytes at `data` into `digest` (32 bytes). NULL on success, else why libcrypto
// could not be loaded or refused (the text stays valid for the life of the process).
const char *ccrypto_sha256(const void *data, size_t length, unsigned char digest[32]);

#endif
