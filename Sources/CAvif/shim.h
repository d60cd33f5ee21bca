#ifndef THUMBIFY_CAVIF_SHIM_H
#define THUMBIFY_CAVIF_SHIM_H
// libavif (AV1 still images: dav1d decodes, libaom encodes in Debian 12's build). Everything Swift needs
// imports as is; the header is wrapped only to give it a module.
#include <avif/avif.h>
#endif
