#include "CQRCode.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libqrencode's QRcode, as its header declares it (stable since 3.0): loaded at
 * run time, so building needs no libqrencode-dev and a machine without it
 * still serves, printing the URL alone. */
typedef struct {
    int version;
    int width;
    unsigned char *data;
} gm_qrcode;

/* QR_ECLEVEL_M and QR_MODE_8 in its enums. */
enum { gm_level_m = 1, gm_mode_8 = 2 };

typedef gm_qrcode *(*gm_encode_fn)(const char *, int, int, int, int);
typedef void (*gm_free_fn)(gm_qrcode *);

unsigned char *gm_qr_encode(const char *text, const char *const *libraries, int *width, char *error, size_t size) {
    void *handle = NULL;
    for (const char *const *name = libraries; *name && !handle; name++) handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(error, size, "libqrencode is not installed (install Debian's libqrencode4)");
        return NULL;
    }
    gm_encode_fn encode = (gm_encode_fn)dlsym(handle, "QRcode_encodeString");
    gm_free_fn release = (gm_free_fn)dlsym(handle, "QRcode_free");
    if (!encode || !release) {
        snprintf(error, size, "this libqrencode has no QRcode_encodeString");
        return NULL;
    }
    gm_qrcode *code = encode(text, 0, gm_level_m, gm_mode_8, 1);
    if (!code || code->width <= 0 || code->width > 177) {
        if (code) release(code);
        snprintf(error, size, "libqrencode could not encode the URL");
        return NULL;
    }
    size_t count = (size_t)code->width * (size_t)code->width;
    unsigned char *modules = malloc(count);
    if (modules) {
        /* Bit 0 of each byte is the module's colour; the rest say what it is for. */
        for (size_t i = 0; i < count; i++) modules[i] = code->data[i] & 1;
        *width = code->width;
    } else {
        snprintf(error, size, "out of memory");
    }
    release(code);
    return modules;
}

void gm_qr_free(unsigned char *modules) { free(modules); }
