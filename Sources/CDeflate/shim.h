#ifndef THUMBIFY_CDEFLATE_SHIM_H
#define THUMBIFY_CDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
