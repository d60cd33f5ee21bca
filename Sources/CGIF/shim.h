#ifndef THUMBIFY_CGIF_SHIM_H
#define THUMBIFY_CGIF_SHIM_H
#include <gif_lib.h>
#endif
