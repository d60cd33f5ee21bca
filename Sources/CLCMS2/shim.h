#ifndef THUMBIFY_CLCMS2_SHIM_H
#define THUMBIFY_CLCMS2_SHIM_H
#include <lcms2.h>

// lcms2's pixel formats (TYPE_RGB_8, TYPE_CMYK_8_REV, …) are macros built from bit-field macros,
// which Swift cannot import: these name the few layouts thumbify converts.
static const cmsUInt32Number thumbify_lcms_rgb_8 = TYPE_RGB_8;
static const cmsUInt32Number thumbify_lcms_rgba_8 = TYPE_RGBA_8;
// Grey read from an RGB or RGBA buffer's first sample (the decoders expand grey to RGB): one colour
// channel and two or three extra channels, so a transform can run in place on the RGB(A) rows.
static const cmsUInt32Number thumbify_lcms_gray_in_rgb_8 = COLORSPACE_SH(PT_GRAY) | EXTRA_SH(2) | CHANNELS_SH(1) | BYTES_SH(1);
static const cmsUInt32Number thumbify_lcms_gray_in_rgba_8 = COLORSPACE_SH(PT_GRAY) | EXTRA_SH(3) | CHANNELS_SH(1) | BYTES_SH(1);
// Adobe's CMYK JPEGs store inverted samples (255 = no ink): the _REV layout reads them so.
static const cmsUInt32Number thumbify_lcms_cmyk_8_rev = TYPE_CMYK_8_REV;
static const cmsUInt32Number thumbify_lcms_cmyk_8 = TYPE_CMYK_8;
#endif
