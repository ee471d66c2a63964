#ifndef GESTUREMAP_CQRCODE_H
#define GESTUREMAP_CQRCODE_H

#include <stddef.h>

/* The modules of a QR code for `text`, one byte a module (1 dark, 0 light),
 * `*width` a side, from libqrencode loaded at run time under the first of
 * `libraries` (a NULL-ended list of sonames) that loads. NULL when it cannot
 * be made; `error` then says why (libqrencode missing, text too long). Free
 * the result with gm_qr_free. */
unsigned char *gm_qr_encode(const char *text, const char *const *libraries, int *width, char *error, size_t size);
void gm_qr_free(unsigned char *modules);

#endif
