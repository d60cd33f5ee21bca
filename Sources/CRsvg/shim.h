#ifndef THUMBIFY_CRSVG_SHIM_H
#define THUMBIFY_CRSVG_SHIM_H
// librsvg (SVG icons) and the cairo image surface it renders into.
#include <librsvg/rsvg.h>
#include <cairo.h>
#endif
