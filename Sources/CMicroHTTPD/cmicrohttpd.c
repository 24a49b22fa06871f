#include "cmicrohttpd.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

// The libmicrohttpd entry points used, looked up once by cmhd_load.
static struct {
  struct MHD_Daemon *(*start_daemon)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                     MHD_AccessHandlerCallback, void *, ...);
  void (*stop_daemon)(struct MHD_Daemon *);
  const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...);
  const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...);
  const char *(*lookup_connection_value)(struct MHD_Connection *, enum MHD_ValueKind, const char *);
  int (*get_connection_values)(struct MHD_Connection *, enum MHD_ValueKind, MHD_KeyValueIterator, void *);
  struct MHD_Response *(*create_response_from_buffer)(size_t, void *, enum MHD_ResponseMemoryMode);
  struct MHD_Response *(*create_response_from_callback)(uint64_t, size_t, MHD_ContentReaderCallback, void *,
                                                        MHD_ContentReaderFreeCallback);
  enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
  enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
  void (*destroy_response)(struct MHD_Response *);
  const char *(*get_version)(void);
} api;

// Each entry point and the name it is found by, looked up in one pass.
static const struct {
  void **slot;
  const char *name;
} symbols[] = {
    {(void **)&api.start_daemon, "MHD_start_daemon"},
    {(void **)&api.stop_daemon, "MHD_stop_daemon"},
    {(void **)&api.get_daemon_info, "MHD_get_daemon_info"},
    {(void **)&api.get_connection_info, "MHD_get_connection_info"},
    {(void **)&api.lookup_connection_value, "MHD_lookup_connection_value"},
    {(void **)&api.get_connection_values, "MHD_get_connection_values"},
    {(void **)&api.create_response_from_buffer, "MHD_create_response_from_buffer"},
    {(void **)&api.create_response_from_callback, "MHD_create_response_from_callback"},
    {(void **)&api.add_response_header, "MHD_add_response_header"},
    {(void **)&api.queue_response, "MHD_queue_response"},
    {(void **)&api.destroy_response, "MHD_destroy_response"},
    {(void **)&api.get_version, "MHD_get_version"},
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_library;
static const char *load_failure = "libmicrohttpd was never loaded";
static char load_failure_text[512];

static const char *load(void) {
  void *handle = dlopen(load_library, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    snprintf(load_failure_text, sizeof load_failure_text, "%s", why ? why : "dlopen failed");
    return load_failure_text;
  }
  for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
    if (!(*symbols[i].slot = dlsym(handle, symbols[i].name))) {
      snprintf(load_failure_text, sizeof load_failure_text, "libmicrohttpd has no %s", symbols[i].name);
      return load_failure_text;
    }
  }
  return NULL;
}

static void load_once_body(void) { load_failure = load(); }

const char *cmhd_load(const char *library) {
  load_library = library;
  pthread_once(&load_once, load_once_body);
  return load_failure;
}

const char *cmhd_version(void) { return load_failure == NULL ? api.get_version() : NULL; }

// -- a growing buffer ---------------------------------------------------------------------

typedef struct {
  char *bytes;
  size_t length, capacity;
} buffer;

static int buffer_append(buffer *b, const void *bytes, size_t length) {
  if (b->length + length + 1 > b->capacity) {
    size_t capacity = b->capacity ? b->capacity : 256;
    while (capacity < b->length + length + 1) capacity *= 2;
    char *grown = realloc(b->bytes, capacity);
    if (!grown) return 0;
    b->bytes = grown;
    b->capacity = capacity;
  }
  memcpy(b->bytes + b->length, bytes, length);
  b->length += length;
  b->bytes[b->length] = 0;
  return 1;
}

// -- replies --------------------------------------------------------------------------------

struct cmhd_reply {
  int status;
  buffer body;
  char content_type[128];
  int delay_ms;
  size_t drip_piece;
  int drip_interval_ms;
  int reset;
};

void cmhd_reply_set_status(cmhd_reply *reply, int status) { reply->status = status; }

void cmhd_reply_set_body(cmhd_reply *reply, const void *body, size_t length, const char *content_type) {
  reply->body.length = 0;
  if (length) buffer_append(&reply->body, body, length);
  snprintf(reply->content_type, sizeof reply->content_type, "%s", content_type ? content_type : "");
}

void cmhd_reply_set_delay(cmhd_reply *reply, int milliseconds) { reply->delay_ms = milliseconds; }

void cmhd_reply_set_drip(cmhd_reply *reply, size_t piece, int interval_ms) {
  reply->drip_piece = piece ? piece : 1;
  reply->drip_interval_ms = interval_ms;
}

void cmhd_reply_set_reset(cmhd_reply *reply) { reply->reset = 1; }

static void sleep_ms(int milliseconds) {
  if (milliseconds <= 0) return;
  struct timespec wait = {milliseconds / 1000, (long)(milliseconds % 1000) * 1000000L};
  while (nanosleep(&wait, &wait) == -1 && errno == EINTR) {
  }
}

// A dripped body: its bytes and how they leave, freed by libmicrohttpd when the reply is done.
typedef struct {
  buffer body;
  size_t piece;
  int interval_ms;
} drip;

static ssize_t drip_read(void *cls, uint64_t position, char *out, size_t max) {
  drip *d = cls;
  if (position >= d->body.length) return MHD_CONTENT_READER_END_OF_STREAM;
  if (position > 0) sleep_ms(d->interval_ms);
  size_t length = d->body.length - position;
  if (length > d->piece) length = d->piece;
  if (length > max) length = max;
  memcpy(out, d->body.bytes + position, length);
  return (ssize_t)length;
}

static void drip_free(void *cls) {
  drip *d = cls;
  free(d->body.bytes);
  free(d);
}

// -- requests -------------------------------------------------------------------------------

struct cmhd_server {
  struct MHD_Daemon *daemon;
  cmhd_handler handler;
  void *context;
  size_t max_body_bytes;
};

// What one request gathers between libmicrohttpd's calls for it.
typedef struct {
  buffer body;
  int too_large;
} pending;

static enum MHD_Result collect_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
  (void)kind;
  buffer *headers = cls;
  buffer_append(headers, key, strlen(key));
  buffer_append(headers, ": ", 2);
  if (value) buffer_append(headers, value, strlen(value));
  buffer_append(headers, "\n", 1);
  return MHD_YES;
}

static enum MHD_Result reset_connection(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = api.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  if (info) {
    struct linger linger = {1, 0};
    setsockopt(info->connect_fd, SOL_SOCKET, SO_LINGER, &linger, sizeof linger);
  }
  return MHD_NO;  // libmicrohttpd closes the connection: with SO_LINGER 0, a reset
}

static enum MHD_Result answer(cmhd_server *server, struct MHD_Connection *connection, const char *method,
                              const char *path, pending *request) {
  buffer headers = {0};
  buffer_append(&headers, "", 0);
  api.get_connection_values(connection, MHD_HEADER_KIND, collect_header, &headers);
  cmhd_request seen = {
      .method = method,
      .path = path,
      .headers = headers.bytes,
      .authorization = api.lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION),
      .body = (const unsigned char *)(request->body.bytes ? request->body.bytes : ""),
      .body_length = request->body.length,
      .too_large = request->too_large,
  };
  cmhd_reply reply = {.status = 500};
  server->handler(server->context, &seen, &reply);
  free(headers.bytes);
  sleep_ms(reply.delay_ms);
  if (reply.reset) {
    free(reply.body.bytes);
    return reset_connection(connection);
  }
  struct MHD_Response *response;
  if (reply.drip_piece) {
    drip *d = malloc(sizeof *d);
    if (!d) return MHD_NO;
    *d = (drip){reply.body, reply.drip_piece, reply.drip_interval_ms};
    response = api.create_response_from_callback(reply.body.length, reply.drip_piece, drip_read, d, drip_free);
    if (!response) drip_free(d);
  } else {
    response = api.create_response_from_buffer(reply.body.length, reply.body.bytes ? reply.body.bytes : "",
                                               MHD_RESPMEM_MUST_COPY);
    free(reply.body.bytes);
  }
  if (!response) return MHD_NO;
  if (reply.content_type[0]) api.add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, reply.content_type);
  enum MHD_Result queued = api.queue_response(connection, (unsigned int)reply.status, response);
  api.destroy_response(response);
  return queued;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *path,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **state) {
  (void)version;
  cmhd_server *server = cls;
  pending *request = *state;
  if (!request) {  // the headers have arrived; the body, if any, comes in the calls that follow
    request = calloc(1, sizeof *request);
    if (!request) return MHD_NO;
    *state = request;
    return MHD_YES;
  }
  if (*upload_size) {
    if (!request->too_large && request->body.length + *upload_size <= server->max_body_bytes) {
      if (!buffer_append(&request->body, upload, *upload_size)) return MHD_NO;
    } else {
      request->too_large = 1;  // the rest is read and dropped, so the client hears the answer
      free(request->body.bytes);
      request->body = (buffer){0};
    }
    *upload_size = 0;
    return MHD_YES;
  }
  return answer(server, connection, method, path, request);
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **state,
                         enum MHD_RequestTerminationCode why) {
  (void)cls, (void)connection, (void)why;
  pending *request = *state;
  if (request) {
    free(request->body.bytes);
    free(request);
    *state = NULL;
  }
}

cmhd_server *cmhd_start(const cmhd_options *options, cmhd_handler handler, void *context, char *why,
                        size_t why_size) {
  if (load_failure) {
    snprintf(why, why_size, "%s", load_failure);
    return NULL;
  }
  cmhd_server *server = calloc(1, sizeof *server);
  if (!server) {
    snprintf(why, why_size, "out of memory");
    return NULL;
  }
  server->handler = handler;
  server->context = context;
  server->max_body_bytes = options->max_body_bytes;
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(options->port)};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG;
  int tls = options->cert_pem != NULL && options->key_pem != NULL;
  if (tls) flags |= MHD_USE_TLS;
  struct MHD_OptionItem items[] = {
      {MHD_OPTION_SOCK_ADDR, 0, &address},
      {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)on_completed, NULL},
      {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)options->max_header_bytes, NULL},
      {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)options->max_connections, NULL},
      {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)options->idle_timeout, NULL},
      {tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, (void *)options->cert_pem},
      {tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, (void *)options->key_pem},
      {MHD_OPTION_END, 0, NULL},
  };
  errno = 0;
  server->daemon = api.start_daemon(flags, options->port, NULL, NULL, on_request, server, MHD_OPTION_ARRAY, items,
                                    MHD_OPTION_END);
  if (!server->daemon) {
    snprintf(why, why_size, "libmicrohttpd cannot listen on 127.0.0.1:%u%s%s", options->port,
             errno ? ": " : "", errno ? strerror(errno) : (tls ? " (is the certificate or its key unreadable?)" : ""));
    free(server);
    return NULL;
  }
  return server;
}

unsigned short cmhd_port(cmhd_server *server) {
  const union MHD_DaemonInfo *info = api.get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info ? info->port : 0;
}

void cmhd_stop(cmhd_server *server) {
  api.stop_daemon(server->daemon);
  free(server);
}
