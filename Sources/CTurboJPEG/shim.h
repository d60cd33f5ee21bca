#ifndef THUMBIFY_CTURBOJPEG_SHIM_H
#define THUMBIFY_CTURBOJPEG_SHIM_H
// TurboJPEG's API imports into Swift as is; the header is wrapped only so the
// module map has one entry point like the other C modules.
#include <stddef.h>
#include <turbojpeg.h>
#endif
