#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
// OpenSSL (libssl, libcrypto), as Swift sees it. Many of its settings are function-like macros
// over SSL_ctrl and SSL_CTX_ctrl, or 64-bit option masks built by a macro: Swift imports none of
// them, so each one we use becomes a typed static inline wrapper here.
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// SNI: the host name the client asks for in its ClientHello.
static inline int cssl_set_tlsext_host_name(SSL *ssl, const char *name) {
  return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline int cssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
  return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

/// SSL_write may return after part of the buffer, and may be retried with the rest of it at another
/// address (a Swift array's storage is not promised to stay put between calls).
static inline void cssl_ctx_set_partial_moving_writes(SSL_CTX *ctx) {
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

/// A peer that closes the TCP connection without a TLS close_notify reads as end of input
/// rather than as an error (many servers do; a truncated body is caught by its framing).
static inline void cssl_ctx_ignore_unexpected_eof(SSL_CTX *ctx) {
  SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
}

#endif
