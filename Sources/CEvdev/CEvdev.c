#include "CEvdev.h"

#include <linux/input.h>

size_t gm_input_event_size(void) { return sizeof(struct input_event); }
