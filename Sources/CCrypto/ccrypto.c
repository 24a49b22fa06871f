#include "ccrypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

// libcrypto's types stay opaque: only pointers to them pass through, so no OpenSSL header is needed
// to build and the library's ABI (stable across OpenSSL 3) is all that is relied on.
typedef struct evp_md_st EVP_MD;
typedef struct engine_st ENGINE;

static struct {
  const EVP_MD *(*sha256)(void);
  int (*digest)(const void *, size_t, unsigned char *, unsigned int *, const EVP_MD *, ENGINE *);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_failure;
static char load_failure_text[512];

static void load(void) {
  // libcrypto.so.3 is what Debian's libssl3 ships (libcurl4, which the sync loads, depends on it);
  // the unversioned name is the development package's link.
  void *handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
  if (!handle) handle = dlopen("libcrypto.so", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    strncpy(load_failure_text, why ? why : "dlopen of libcrypto failed", sizeof load_failure_text - 1);
    load_failure = load_failure_text;
    return;
  }
  *(void **)&api.sha256 = dlsym(handle, "EVP_sha256");
  *(void **)&api.digest = dlsym(handle, "EVP_Digest");
  if (!api.sha256 || !api.digest) load_failure = "libcrypto has no EVP_sha256 or EVP_Digest";
}

const char *ccrypto_sha256(const void *data, size_t length, unsigned char digest[32]) {
  pthread_once(&load_once, load);
  if (load_failure) return load_failure;
  unsigned int written = 0;
  if (api.digest(data, length, digest, &written, api.sha256(), NULL) != 1 || written != 32) {
    return "libcrypto's EVP_Digest failed";
  }
  return NULL;
}
