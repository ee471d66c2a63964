#include "CServeTLS.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdio.h>

/* A client's hello is held here until the server gives it its turn
 * (gm_tls_take_turn): the private key's work (an RSA-4096 signature takes
 * milliseconds) then runs once per turn, never for a crowd at once. A
 * session's app data marks the turn given. */
static int hello_waits_for_turn(SSL *session, int *alert, void *unused) {
    (void)alert;
    (void)unused;
    return SSL_get_app_data(session) ? SSL_CLIENT_HELLO_SUCCESS : SSL_CLIENT_HELLO_RETRY;
}

static void last_error(char *error, size_t size, const char *what) {
    unsigned long code = ERR_get_error();
    char reason[256] = "unknown error";
    if (code) ERR_error_string_n(code, reason, sizeof reason);
    snprintf(error, size, "%s: %s", what, reason);
    ERR_clear_error();
}

void *gm_tls_context_new(const char *cert, const char *key, char *error, size_t size) {
    SSL_CTX *context = SSL_CTX_new(TLS_server_method());
    if (!context) {
        last_error(error, size, "cannot make a TLS context");
        return NULL;
    }
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    /* A renegotiation would be a second handshake, with no turn asked. */
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION);
    SSL_CTX_set_client_hello_cb(context, hello_waits_for_turn, NULL);
    /* The outbox hands the same bytes again after WANT_WRITE, maybe moved. */
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (SSL_CTX_use_certificate_chain_file(context, cert) != 1) {
        last_error(error, size, "cannot read the certificate (--cert, PEM)");
    } else if (SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) != 1) {
        last_error(error, size, "cannot read the private key (--key, PEM, unencrypted)");
    } else if (SSL_CTX_check_private_key(context) != 1) {
        last_error(error, size, "the key does not belong to the certificate");
    } else {
        return context;
    }
    SSL_CTX_free(context);
    return NULL;
}

void gm_tls_context_free(void *context) { SSL_CTX_free(context); }

void *gm_tls_session_new(void *context, int fd) {
    SSL *session = SSL_new(context);
    if (!session) return NULL;
    if (SSL_set_fd(session, fd) != 1) {
        SSL_free(session);
        return NULL;
    }
    SSL_set_accept_state(session);
    return session;
}

void gm_tls_session_free(void *session) {
    if (!session) return;
    if (SSL_is_init_finished(session)) SSL_shutdown(session);
    SSL_free(session);
    ERR_clear_error();
}

static long outcome(SSL *session, int result) {
    if (result > 0) return result;
    switch (SSL_get_error(session, result)) {
    case SSL_ERROR_WANT_READ: return GM_TLS_WANT_READ;
    case SSL_ERROR_WANT_WRITE: return GM_TLS_WANT_WRITE;
    case SSL_ERROR_WANT_CLIENT_HELLO_CB: return GM_TLS_WANT_TURN;
    case SSL_ERROR_ZERO_RETURN: return 0;
    default:
        /* A client that is not speaking TLS, or a broken one: its queue is dropped. */
        ERR_clear_error();
        return GM_TLS_FAILED;
    }
}

long gm_tls_read(void *session, void *buffer, size_t length) {
    int n = length > 1 << 30 ? 1 << 30 : (int)length;
    return outcome(session, SSL_read(session, buffer, n));
}

long gm_tls_write(void *session, const void *buffer, size_t length) {
    int n = length > 1 << 30 ? 1 << 30 : (int)length;
    return outcome(session, SSL_write(session, buffer, n));
}

int gm_tls_pending(void *session) { return SSL_pending(session); }

void gm_tls_take_turn(void *session) {
    static char given;
    SSL_set_app_data((SSL *)session, &given);
}
