#ifndef THUMBIFY_CUCHARDET_SHIM_H
#define THUMBIFY_CUCHARDET_SHIM_H
// Nothing to wrap: uchardet's five functions import into Swift as they are. The header only gives
// the module map one file to name.
#include <uchardet/uchardet.h>
#endif
