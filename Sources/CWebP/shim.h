#ifndef THUMBIFY_CWEBP_SHIM_H
#define THUMBIFY_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/encode.h>

// WebPInitDecoderConfig, WebPConfigInit and WebPPictureInit are macros over
// versioned *Internal functions, which Swift cannot import.
static inline int thumbify_webp_init_decoder_config(WebPDecoderConfig *c) { return WebPInitDecoderConfig(c); }
static inline int thumbify_webp_config_init(WebPConfig *c) { return WebPConfigInit(c); }
static inline int thumbify_webp_config_preset(WebPConfig *c, WebPPreset p, float q) { return WebPConfigPreset(c, p, q); }
static inline int thumbify_webp_picture_init(WebPPicture *p) { return WebPPictureInit(p); }
static inline VP8StatusCode thumbify_webp_get_features(const uint8_t *d, size_t n, WebPBitstreamFeatures *f) { return WebPGetFeatures(d, n, f); }
#endif
