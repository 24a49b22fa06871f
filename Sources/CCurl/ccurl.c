#include "ccurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The libcurl entry points used, looked up once by ccurl_load.
static struct {
  CURLcode (*global_init)(long);
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
  void (*easy_reset)(CURL *);
  void (*easy_cleanup)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_add_handle)(CURLM *, CURL *);
  CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
  CURLMcode (*multi_perform)(CURLM *, int *);
  CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
  CURLMsg *(*multi_info_read)(CURLM *, int *);
  CURLMcode (*multi_cleanup)(CURLM *);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  curl_version_info_data *(*version_info)(CURLversion);
  // The URL API (libcurl 7.62; curl_url_strerror 7.80): optional, ccurl_url_check says when absent.
  CURLU *(*url)(void);
  CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
  void (*url_cleanup)(CURLU *);
  const char *(*url_strerror)(CURLUcode);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_library;
static const char *load_failure = "libcurl was never loaded";
static char load_failure_text[512];

#define FIND(field, name) if (!(*(void **)&api.field = dlsym(handle, name))) return fail("libcurl has no " name);

static const char *fail(const char *why) {
  strncpy(load_failure_text, why, sizeof load_failure_text - 1);
  return load_failure_text;
}

static const char *load(void) {
  void *handle = dlopen(load_library, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return fail(why ? why : "dlopen failed");
  }
  FIND(global_init, "curl_global_init")
  FIND(easy_init, "curl_easy_init")
  FIND(easy_setopt, "curl_easy_setopt")
  FIND(easy_getinfo, "curl_easy_getinfo")
  FIND(easy_reset, "curl_easy_reset")
  FIND(easy_cleanup, "curl_easy_cleanup")
  FIND(easy_strerror, "curl_easy_strerror")
  FIND(multi_init, "curl_multi_init")
  FIND(multi_add_handle, "curl_multi_add_handle")
  FIND(multi_remove_handle, "curl_multi_remove_handle")
  FIND(multi_perform, "curl_multi_perform")
  FIND(multi_poll, "curl_multi_poll")
  FIND(multi_info_read, "curl_multi_info_read")
  FIND(multi_cleanup, "curl_multi_cleanup")
  FIND(slist_append, "curl_slist_append")
  FIND(slist_free_all, "curl_slist_free_all")
  FIND(version_info, "curl_version_info")
  *(void **)&api.url = dlsym(handle, "curl_url");
  *(void **)&api.url_set = dlsym(handle, "curl_url_set");
  *(void **)&api.url_cleanup = dlsym(handle, "curl_url_cleanup");
  *(void **)&api.url_strerror = dlsym(handle, "curl_url_strerror");
  if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return fail("curl_global_init failed");
  return NULL;
}

static void load_once_body(void) { load_failure = load(); }

const char *ccurl_load(const char *library) {
  load_library = library;
  pthread_once(&load_once, load_once_body);
  return load_failure;
}

const char *ccurl_version(void) {
  if (load_failure) return NULL;
  curl_version_info_data *info = api.version_info(CURLVERSION_NOW);
  return info ? info->version : NULL;
}

struct ccurl_session {
  CURLM *multi;
  CURL *easy;
  struct curl_slist *headers;
  int attached;
  int done;
  CURLcode code;
  unsigned char *body;
  size_t body_length, body_capacity;
  long long max_reply_bytes;
  int too_large;
  char error[CURL_ERROR_SIZE];
};

ccurl_session *ccurl_session_new(void) {
  ccurl_session *session = calloc(1, sizeof *session);
  if (!session) return NULL;
  session->multi = api.multi_init();
  session->easy = api.easy_init();
  if (!session->multi || !session->easy) {
    ccurl_session_free(session);
    return NULL;
  }
  return session;
}

void ccurl_session_free(ccurl_session *session) {
  if (!session) return;
  if (session->attached) api.multi_remove_handle(session->multi, session->easy);
  if (session->easy) api.easy_cleanup(session->easy);
  if (session->multi) api.multi_cleanup(session->multi);
  api.slist_free_all(session->headers);
  free(session->body);
  free(session);
}

void ccurl_release_body(ccurl_session *session) {
  free(session->body);
  session->body = NULL;
  session->body_length = session->body_capacity = 0;
}

// Keeps the reply's (decoded) bytes, refusing any beyond the limit: returning short fails the transfer.
static size_t on_data(char *data, size_t size, size_t count, void *context) {
  ccurl_session *session = context;
  size_t length = size * count;
  if ((long long)(session->body_length + length) > session->max_reply_bytes) {
    session->too_large = 1;
    return 0;
  }
  if (session->body_length + length > session->body_capacity) {
    size_t capacity = session->body_capacity ? session->body_capacity : 16384;
    while (capacity < session->body_length + length) capacity *= 2;
    unsigned char *grown = realloc(session->body, capacity);
    if (!grown) return 0;
    session->body = grown;
    session->body_capacity = capacity;
  }
  memcpy(session->body + session->body_length, data, length);
  session->body_length += length;
  return length;
}

#define SET(option, value)                                                                     \
  if ((code = api.easy_setopt(easy, option, value)) != CURLE_OK) goto refused;

int ccurl_start(ccurl_session *session, const ccurl_request *request) {
  CURL *easy = session->easy;
  CURLcode code = CURLE_OK;
  if (session->attached) ccurl_abort(session);
  api.easy_reset(easy);  // options only: live connections and the DNS cache stay with the handles
  api.slist_free_all(session->headers);
  session->headers = NULL;
  session->body_length = 0;
  session->too_large = 0;
  session->done = 0;
  session->error[0] = 0;
  session->max_reply_bytes = request->max_reply_bytes;
  for (int index = 0; index < request->header_count; index++) {
    struct curl_slist *list = api.slist_append(session->headers, request->headers[index]);
    if (!list) {
      code = CURLE_OUT_OF_MEMORY;
      goto refused;
    }
    session->headers = list;
  }
  SET(CURLOPT_ERRORBUFFER, session->error)
  SET(CURLOPT_URL, request->url)
  SET(CURLOPT_PROTOCOLS_STR, request->protocol)
  SET(CURLOPT_FOLLOWLOCATION, 0L)
  if (request->body) {
    SET(CURLOPT_POST, 1L)
    SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length)
    SET(CURLOPT_COPYPOSTFIELDS, request->body)
  } else {
    SET(CURLOPT_HTTPGET, 1L)
  }
  SET(CURLOPT_HTTPHEADER, session->headers)
  SET(CURLOPT_USERAGENT, request->user_agent)
  SET(CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms)
  SET(CURLOPT_TIMEOUT_MS, request->timeout_ms)
  SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)request->max_reply_bytes)
  SET(CURLOPT_WRITEFUNCTION, on_data)
  SET(CURLOPT_WRITEDATA, session)
  SET(CURLOPT_NOSIGNAL, 1L)
  SET(CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS)
  SET(CURLOPT_ACCEPT_ENCODING, "")
  SET(CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2)
  SET(CURLOPT_PROXY, request->proxy)
  SET(CURLOPT_NOPROXY, request->no_proxy)
  if (request->ca_file) {
    SET(CURLOPT_CAINFO, request->ca_file)
    SET(CURLOPT_PROXY_CAINFO, request->ca_file)
  }
  if (api.multi_add_handle(session->multi, easy) != CURLM_OK) {
    code = CURLE_FAILED_INIT;
    goto refused;
  }
  session->attached = 1;
  return 0;
refused:
  session->code = code;
  session->done = 1;
  return (int)code;
}

int ccurl_step(ccurl_session *session, int wait_ms) {
  if (session->done) return 0;
  int running = 0;
  if (api.multi_perform(session->multi, &running) != CURLM_OK) {
    session->code = CURLE_FAILED_INIT;
    ccurl_abort(session);
    return 0;
  }
  int queued = 0;
  CURLMsg *message;
  while ((message = api.multi_info_read(session->multi, &queued))) {
    if (message->msg == CURLMSG_DONE && message->easy_handle == session->easy) {
      session->code = message->data.result;
      session->done = 1;
    }
  }
  if (session->done) {
    api.multi_remove_handle(session->multi, session->easy);
    session->attached = 0;
    return 0;
  }
  api.multi_poll(session->multi, NULL, 0, wait_ms, NULL);
  return 1;
}

void ccurl_abort(ccurl_session *session) {
  if (session->attached) api.multi_remove_handle(session->multi, session->easy);
  session->attached = 0;
  session->done = 1;
}

static ccurl_outcome outcome(CURLcode code, int too_large) {
  if (too_large || code == CURLE_FILESIZE_EXCEEDED) return CCURL_TOO_LARGE;
  switch (code) {
  case CURLE_OK: return CCURL_REPLIED;
  case CURLE_COULDNT_RESOLVE_HOST: return CCURL_RESOLVE;
  case CURLE_COULDNT_RESOLVE_PROXY: return CCURL_RESOLVE_PROXY;
  case CURLE_COULDNT_CONNECT: return CCURL_CONNECT;
  case CURLE_OPERATION_TIMEDOUT: return CCURL_TIMEOUT;
  case CURLE_PEER_FAILED_VERIFICATION: return CCURL_CERTIFICATE;
  case CURLE_SSL_CONNECT_ERROR: return CCURL_TLS;
  case CURLE_SSL_CACERT_BADFILE: return CCURL_CA_FILE;
  case CURLE_PROXY: return CCURL_PROXY;
  default: return CCURL_OTHER;
  }
}

void ccurl_result_get(ccurl_session *session, ccurl_result *result) {
  CURL *easy = session->easy;
  memset(result, 0, sizeof *result);
  result->code = (int)session->code;
  result->error = session->error[0] ? session->error : api.easy_strerror(session->code);
  api.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &result->http_status);
  api.easy_getinfo(easy, CURLINFO_HTTP_CONNECTCODE, &result->connect_status);
  api.easy_getinfo(easy, CURLINFO_OS_ERRNO, &result->os_errno);
  api.easy_getinfo(easy, CURLINFO_REDIRECT_URL, &result->location);
  api.easy_getinfo(easy, CURLINFO_CONTENT_TYPE, &result->content_type);
  result->outcome = outcome(session->code, session->too_large);
  result->body = session->body;
  result->body_length = session->body_length;
}

void ccurl_received(ccurl_session *session, long long *received, long long *expected) {
  curl_off_t length = -1;
  api.easy_getinfo(session->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
  *received = (long long)session->body_length;
  *expected = (long long)length;
}

int ccurl_url_check(const char *url, char *why, size_t why_size) {
  if (why_size) why[0] = 0;
  if (load_failure || !api.url || !api.url_set || !api.url_cleanup) return -1;
  CURLU *parsed = api.url();
  if (!parsed) return -1;
  CURLUcode code = api.url_set(parsed, CURLUPART_URL, url, 0);
  api.url_cleanup(parsed);
  if (code != CURLUE_OK && why_size) {
    const char *words = api.url_strerror ? api.url_strerror(code) : "the URL API refused it";
    snprintf(why, why_size, "%s", words);
  }
  return (int)code;
}
