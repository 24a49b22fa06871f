#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
// libcurl, as Swift sees it. curl_easy_setopt and curl_easy_getinfo are variadic and
// CURL_GLOBAL_ALL is a macro: each use we need becomes one typed static inline wrapper.
#include <curl/curl.h>

typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*ccurl_progress_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                       curl_off_t upload_total, curl_off_t upload_now);

static inline CURLcode ccurl_global_init(void) { return curl_global_init(CURL_GLOBAL_ALL); }

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_headers(CURL *handle, struct curl_slist *headers) {
  return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

static inline CURLcode ccurl_setopt_post_size(CURL *handle, curl_off_t size) {
  return curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, size);
}

static inline CURLcode ccurl_setopt_write_function(CURL *handle, ccurl_write_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode ccurl_setopt_progress_function(CURL *handle, ccurl_progress_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
  return curl_easy_getinfo(handle, info, value);
}

#endif
