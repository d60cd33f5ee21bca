#ifndef THUMBIFY_CPNG_SHIM_H
#define THUMBIFY_CPNG_SHIM_H
#include <png.h>
#include <setjmp.h>
#endif
