#ifndef CMINIZIP_H
#define CMINIZIP_H

#include <stddef.h>

// zlib's minizip (Debian's libminizip1), loaded with dlopen on first use: only a wallet pass is
// ever opened as a zip, and a server that never adds one should not load it, nor fail to start
// where it is missing.

typedef enum {
  CMINIZIP_OK = 0,
  CMINIZIP_NO_LIBRARY,  // libminizip cannot be loaded (`why` says why)
  CMINIZIP_NOT_A_ZIP,   // the file is not a zip archive
  CMINIZIP_NO_MEMBER,   // the archive has no member of that name
  CMINIZIP_TOO_LARGE,   // the member inflates to more than `capacity` bytes
  CMINIZIP_DAMAGED,     // the member does not inflate, or its CRC does not match
} cminizip_status;

// Reads the member `name` of the zip file at `path` into `buffer`, inflating at most `capacity` + 1
// bytes, so an archive whose member inflates without bound costs no more than that. `*length` is the
// member's size on CMINIZIP_OK; `*why` is static text for CMINIZIP_NO_LIBRARY.
cminizip_status cminizip_read_member(const char *path, const char *name, unsigned char *buffer, size_t capacity,
                                     size_t *length, const char **why);

#endif
