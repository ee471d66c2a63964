#ifndef GESTUREMAP_CEVDEV_H
#define GESTUREMAP_CEVDEV_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's struct input_event size on this machine (24 bytes on 64-bit). */
size_t gm_input_event_size(void);

#endif
