#ifndef CJANSSON_SHIM_H
#define CJANSSON_SHIM_H
// jansson, as Swift sees it. Function-like macros do not import, so the few we need are
// restated here as static inline functions with a cj_ prefix.
#include <jansson.h>

static inline json_type cj_typeof(const json_t *json) { return json->type; }
static inline json_t *cj_boolean(int value) { return value ? json_true() : json_false(); }

#endif
