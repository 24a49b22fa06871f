#include "cminizip.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

// minizip's handle stays opaque, and its few entry points are declared here as unzip.h declares
// them (zlib's contrib/minizip, ABI-stable since 1.1), so no development package is needed to build.
typedef void *unzFile;
enum { UNZ_OK = 0, UNZ_CRCERROR = -105 };

static struct {
  unzFile (*open64)(const void *);
  int (*locate)(unzFile, const char *, int);
  int (*open_current)(unzFile);
  int (*read_current)(unzFile, void *, unsigned);
  int (*close_current)(unzFile);
  int (*close)(unzFile);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_failure;
static char load_failure_text[512];

static void load(void) {
  void *handle = dlopen("libminizip.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) handle = dlopen("libminizip.so", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    strncpy(load_failure_text, why ? why : "dlopen of libminizip failed", sizeof load_failure_text - 1);
    load_failure = load_failure_text;
    return;
  }
  *(void **)&api.open64 = dlsym(handle, "unzOpen64");
  *(void **)&api.locate = dlsym(handle, "unzLocateFile");
  *(void **)&api.open_current = dlsym(handle, "unzOpenCurrentFile");
  *(void **)&api.read_current = dlsym(handle, "unzReadCurrentFile");
  *(void **)&api.close_current = dlsym(handle, "unzCloseCurrentFile");
  *(void **)&api.close = dlsym(handle, "unzClose");
  if (!api.open64 || !api.locate || !api.open_current || !api.read_current || !api.close_current || !api.close) {
    load_failure = "libminizip lacks one of unzOpen64, unzLocateFile, unzOpenCurrentFile, unzReadCurrentFile";
  }
}

cminizip_status cminizip_read_member(const char *path, const char *name, unsigned char *buffer, size_t capacity,
                                     size_t *length, const char **why) {
  pthread_once(&load_once, load);
  *length = 0;
  if (load_failure) {
    *why = load_failure;
    return CMINIZIP_NO_LIBRARY;
  }
  unzFile zip = api.open64(path);
  if (!zip) return CMINIZIP_NOT_A_ZIP;
  cminizip_status status = CMINIZIP_OK;
  if (api.locate(zip, name, 1) != UNZ_OK) {
    status = CMINIZIP_NO_MEMBER;
  } else if (api.open_current(zip) != UNZ_OK) {
    status = CMINIZIP_DAMAGED;
  } else {
    for (;;) {
      // One byte past the capacity tells a member that fits from one that does not.
      unsigned char spill;
      int read = *length < capacity
                     ? api.read_current(zip, buffer + *length, (unsigned)(capacity - *length > 65536 ? 65536 : capacity - *length))
                     : api.read_current(zip, &spill, 1);
      if (read < 0) {
        status = CMINIZIP_DAMAGED;
        break;
      }
      if (read == 0) break;
      if (*length >= capacity) {
        status = CMINIZIP_TOO_LARGE;
        break;
      }
      *length += (size_t)read;
    }
    // Read to its end, a member whose CRC does not match is reported here.
    if (api.close_current(zip) == UNZ_CRCERROR && status == CMINIZIP_OK) status = CMINIZIP_DAMAGED;
  }
  api.close(zip);
  return status;
}
