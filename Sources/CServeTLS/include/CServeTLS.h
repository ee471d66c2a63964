#ifndef GESTUREMAP_CSERVETLS_H
#define GESTUREMAP_CSERVETLS_H

#include <stddef.h>

/* `serve --cert/--key`: TLS on the server's non-blocking sockets, through
 * OpenSSL's libssl. Every call returns at once; the WANT results say which
 * way the socket must be ready before the same call is made again. */

enum {
    GM_TLS_WANT_READ = -1,
    GM_TLS_WANT_WRITE = -2,
    GM_TLS_FAILED = -3,
    /* The client's hello is in; the handshake goes on once gm_tls_take_turn is called. */
    GM_TLS_WANT_TURN = -4,
};

/* A server context from PEM files; NULL and a message in `error` when they
 * cannot be read or do not match. */
void *gm_tls_context_new(const char *cert, const char *key, char *error, size_t size);
void gm_tls_context_free(void *context);

/* A session on accepted socket `fd`; its handshake runs inside the first reads. */
void *gm_tls_session_new(void *context, int fd);
/* Sends close_notify if it can without waiting, then frees the session. */
void gm_tls_session_free(void *session);

/* > 0: bytes read or written; 0 (read): the peer closed; or a GM_TLS_ value. */
long gm_tls_read(void *session, void *buffer, size_t length);
long gm_tls_write(void *session, const void *buffer, size_t length);
/* Decrypted bytes already held, which poll() cannot see. */
int gm_tls_pending(void *session);
/* Lets a session that returned GM_TLS_WANT_TURN do its handshake's costly
 * part (the private key's signature) at its next read. */
void gm_tls_take_turn(void *session);

#endif
